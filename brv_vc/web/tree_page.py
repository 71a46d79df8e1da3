"""The tree page: a folder's sub-folders with counts and maturity mix, its entries a page at a time.

Folded by construction: a page shows one folder (the root shows the domains, each with its
topics folded under it), never the 25,000 entries of a whole tree; a folder's own entries
come ``PAGE_SIZE`` at a time.
"""

from __future__ import annotations

from datetime import datetime

from brv_vc.services.glance import Glance, Mix, glance, maturity_mix
from brv_vc.services.tree_view import FolderNode, build_tree
from brv_vc.tree.project import Project
from brv_vc.web.html import Markup, entry_href, folder_href, join, link, page, tag, url

PAGE_SIZE = 100


def layout_path(path: str) -> str:
    """``path`` as build_tree names folders ('' for the root; '..' and the like kept, to fail)."""
    return "/".join(p for p in path.strip().replace("\\", "/").split("/") if p not in ("", "."))


def badge(maturity: str) -> Markup:
    """The maturity of an entry as a coloured word."""
    return tag("span", maturity, class_=f"badge m-{maturity}", title="maturity")


def importance_bar(importance: float) -> Markup:
    """Importance 0-100 as a short bar with its number."""
    width = max(0, min(100, round(importance)))
    return tag("span", tag("span", class_=f"fill w{width // 5 * 5}"), f" {importance:.0f}",
               class_="imp", title=f"importance {importance:.1f} of 100")


def _mix(node: FolderNode, mix: Mix) -> Markup:
    draft = max(0, node.count - mix.core - mix.validated)
    return join([tag("span", f"{mix.core} core", class_="badge m-core") if mix.core else "",
                 tag("span", f"{mix.validated} validated", class_="badge m-validated")
                 if mix.validated else "",
                 tag("span", f"{draft} draft", class_="badge m-draft") if draft else ""], " ")


def _count(n: int) -> str:
    return f"{n:,} entr{'y' if n == 1 else 'ies'}"


def _crumbs(path: str) -> Markup:
    parts = [link(folder_href(""), "context-tree")]
    so_far = []
    for name in path.split("/") if path else []:
        so_far.append(name)
        parts.append(link(folder_href("/".join(so_far)), name))
    return tag("nav", join(parts, " / "), class_="crumbs")


def entry_rows(items: tuple[Glance, ...]) -> Markup:
    """A list of entries: title (linked), path, importance and maturity."""
    rows = [tag("li", link(entry_href(g.path), g.title or g.path), " ",
                tag("span", g.path, class_="path"), " ", importance_bar(g.importance), " ",
                badge(g.maturity)) for g in items]
    return tag("ul", join(rows), class_="entries")


def _folder(project: Project, whole: FolderNode, path: str) -> FolderNode:
    """The node of ``path`` in the whole tree; build_tree's own checks and errors else."""
    node = whole
    for name in [p for p in path.strip().strip("/").split("/") if p] if path.strip() else []:
        node = next((f for f in node.folders if f.name == name), None)  # type: ignore[assignment]
        if node is None:
            break
    if node is not None and node.path == layout_path(path):
        return node
    return build_tree(project, path, listing=())  # raises for a bad path; a folder sans entries


def render(project: Project, whole: FolderNode, path: str, page_no: int,
           now: datetime) -> Markup:
    """The page of folder ``path`` ('' = the root), its entries' page ``page_no`` (from 1).

    ``whole``: the tree of every entry (``build_tree`` over the index's paths; walking
    25,000 files at every page view would cost more than the rest of the page).

    Raises:
        InvalidPathError: the path leaves the tree.  NotFoundError: no such folder.
    """
    root = _folder(project, whole, path)
    mixes = maturity_mix(project, [f.path for f in root.folders] + [root.path], now)
    head = tag("h1", root.path or "Context tree", " ", tag("small", _count(root.count)))
    folders = []
    for folder in root.folders:
        topics = join(tag("li", link(folder_href(t.path), t.name), " ",
                             tag("small", _count(t.count))) for t in folder.folders)
        folded = tag("details", tag("summary", f"{len(folder.folders)} topic"
                                             f"{'' if len(folder.folders) == 1 else 's'}"),
                     tag("ul", topics)) if folder.folders else ""
        folders.append(tag("li", link(folder_href(folder.path), folder.name + "/",
                                      class_="folder"), " ", tag("small", _count(folder.count)),
                           " ", _mix(folder, mixes.get(folder.path, Mix())), folded))
    parts: list[object] = [_crumbs(root.path), head,
                           tag("p", _mix(root, mixes.get(root.path, Mix())), class_="mix")]
    graph = link(url("/graph", domain=root.path or None), "Graph of its links →")
    parts.append(tag("p", graph, class_="hint"))
    if folders:
        parts += [tag("h2", "Folders"), tag("ul", join(folders), class_="folders")]
    if root.entries:
        pages = (len(root.entries) + PAGE_SIZE - 1) // PAGE_SIZE
        page_no = max(1, min(page_no, pages))
        names = root.entries[(page_no - 1) * PAGE_SIZE:page_no * PAGE_SIZE]
        prefix = root.path + "/" if root.path else ""
        items = glance(project, [prefix + n for n in names], now)
        parts += [tag("h2", "Entries"), entry_rows(items)]
        if pages > 1:
            parts.append(_pager(root.path, page_no, pages))
    if not folders and not root.entries:
        parts.append(tag("p", "No entries yet. Add one with: brv curate add DOMAIN/TOPIC "
                              "--title TITLE --content TEXT", class_="hint"))
    return page(root.path or "Tree", join(parts), active="/")


def _pager(path: str, page_no: int, pages: int) -> Markup:
    prev = link(folder_href(path, page_no - 1), "← previous") if page_no > 1 else ""
    nxt = link(folder_href(path, page_no + 1), "next →") if page_no < pages else ""
    return tag("p", prev, f" page {page_no} of {pages} ", nxt, class_="pager")

