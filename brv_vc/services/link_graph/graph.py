"""The pictures the UI asks for: an entry's neighbourhood, a folder's, the tree's domains."""

from __future__ import annotations

from collections.abc import Callable

from brv_vc.errors import NotFoundError, UsageError
from brv_vc.index.entries import is_file, is_folder
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.services.link_graph.folders import folder_nodes, tree_nodes
from brv_vc.services.link_graph.layout import radial
from brv_vc.services.link_graph.model import Edge, Graph, Node
from brv_vc.services.link_graph.neighbourhood import entry_nodes
from brv_vc.services.link_graph.whole import whole_nodes
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project

LIMIT = 40  # nodes a person can still read in one picture
WHOLE = 200  # entries the interactive graph draws of the whole tree (zoom and filters read it)
Found = tuple[list[Node], list[Edge], int]
# pictures by (tree fingerprint, what was asked): the fingerprint hashes every indexed file's
# path and content, so it changes whenever a link can; brv ui is one resident process, and the
# tree's domains (one scan of every link) cost a scan once per state of the tree
_CACHE: dict[tuple[object, ...], Found] = {}
_CACHED = 64


def _cached(opened: OpenIndex, key: tuple[object, ...], compute: Callable[[], Found]) -> Found:
    from brv_vc.index.db import get_meta

    full = (get_meta(opened.conn, "fingerprint"), *key)
    if full not in _CACHE:
        if len(_CACHE) >= _CACHED:
            del _CACHE[next(iter(_CACHE))]  # the oldest
        _CACHE[full] = compute()
    nodes, edges, more = _CACHE[full]
    return list(nodes), list(edges), more


def _bounded(limit: int) -> int:
    if limit < 2:
        raise UsageError(f"a picture needs at least 2 nodes, not {limit}",
                         hint=f"leave the limit at its default ({LIMIT})")
    return limit


def _laid_out(center: str, scope: str, found: Found, notes: list[str]) -> Graph:
    nodes, edges, more = found
    return Graph(center, scope, tuple(radial(nodes, edges)), tuple(edges), more, tuple(notes))


def entry_graph(project: Project, path: str, *, limit: int = LIMIT, hops: int = 2) -> Graph:
    """The entries an entry names and is named by, and theirs, up to ``limit`` nodes.

    Args:
        project: the project.
        path: the entry's tree path (``.md`` optional).
        limit: nodes drawn at most (the centre included); the rest are counted in ``more``.
        hops: how many links away to look.

    Raises:
        NotFoundError: no indexed entry at ``path``. InvalidPathError: it leaves the tree.
    """
    relpath = clean_relpath(path, what="entry path")
    limit = _bounded(limit)

    def work(opened: OpenIndex) -> Found:
        conn = opened.conn
        found = [candidate for candidate in (relpath, relpath + ".md")
                 if is_file(conn, candidate)]
        if not found:
            raise NotFoundError(f"no entry at '{relpath}'", file=relpath,
                                hint="find one with 'brv search' or pick it on the tree page")
        entry = found[0]
        return _cached(opened, (str(project.root), "entry", entry, limit, hops),
                       lambda: entry_nodes(conn, entry, limit=limit, hops=hops))

    found, notes = with_index(project, work)
    return _laid_out(found[0][0].path, "entry", found, notes)


def folder_graph(project: Project, folder: str = "", *, limit: int = LIMIT) -> Graph:
    """A folder's most linked entries and the folders it links with; "" for all domains.

    Args:
        project: the project.
        folder: a domain or topic folder of the tree, or "" for the tree's domains.
        limit: nodes drawn at most; the rest are counted in ``more``.

    Raises:
        NotFoundError: no such folder. InvalidPathError: it leaves the tree.
    """
    name = clean_relpath(folder, what="folder") if folder.strip(" /") else ""
    limit = _bounded(limit)

    def work(opened: OpenIndex) -> Found:
        conn = opened.conn
        key = (str(project.root), "folder", name, limit)
        if not name:
            return _cached(opened, key, lambda: tree_nodes(conn, limit=limit))
        if not is_folder(conn, name):
            raise NotFoundError(f"no folder '{name}' in the tree", file=name,
                                hint="pick a domain or topic on the tree page")
        return _cached(opened, key, lambda: folder_nodes(conn, name, limit=limit))

    found, notes = with_index(project, work)
    return _laid_out(name, "folder" if name else "tree", found, notes)


def whole_graph(project: Project, *, limit: int = WHOLE) -> Graph:
    """The tree's ``limit`` most linked entries and the relations among them (scope "whole").

    Not laid out: the page's graph library places them (every node at 0, 0).
    """
    limit = _bounded(limit)

    def work(opened: OpenIndex) -> Found:
        return _cached(opened, (str(project.root), "whole", limit),
                       lambda: whole_nodes(opened.conn, limit=limit))

    (nodes, edges, more), notes = with_index(project, work)
    return Graph("", "whole", tuple(nodes), tuple(edges), more, tuple(notes))
