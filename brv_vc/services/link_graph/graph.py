"""The pictures the UI asks for: an entry's neighbourhood, a folder's, the tree's domains."""

from __future__ import annotations

from brv_vc.errors import NotFoundError, UsageError
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.services.link_graph.folders import folder_nodes, tree_nodes
from brv_vc.services.link_graph.layout import radial
from brv_vc.services.link_graph.model import Edge, Graph, Node
from brv_vc.services.link_graph.neighbourhood import entry_nodes
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project

LIMIT = 40  # nodes a person can still read in one picture


def _bounded(limit: int) -> int:
    if limit < 2:
        raise UsageError(f"a picture needs at least 2 nodes, not {limit}",
                               hint=f"leave the limit at its default ({LIMIT})")
    return limit


def _laid_out(center: str, scope: str, found: tuple[list[Node], list[Edge], int],
              notes: list[str]) -> Graph:
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

    def work(opened: OpenIndex) -> tuple[list[Node], list[Edge], int]:
        conn = opened.conn
        for candidate in (relpath, relpath + ".md"):
            if conn.execute("SELECT 1 FROM docs WHERE path = ?", (candidate,)).fetchone():
                return entry_nodes(conn, candidate, limit=limit, hops=hops)
        raise NotFoundError(f"no entry at '{relpath}'", file=relpath,
                            hint="find one with 'brv search' or pick it on the tree page")

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

    def work(opened: OpenIndex) -> tuple[list[Node], list[Edge], int]:
        conn = opened.conn
        if not name:
            return tree_nodes(conn, limit=limit)
        if not conn.execute("SELECT 1 FROM dirs WHERE path = ?", (name,)).fetchone():
            raise NotFoundError(f"no folder '{name}' in the tree", file=name,
                                hint="pick a domain or topic on the tree page")
        return folder_nodes(conn, name, limit=limit)

    found, notes = with_index(project, work)
    return _laid_out(name, "folder" if name else "tree", found, notes)
