"""``brv tree``: the hierarchy of the context tree with entry counts per folder.

Only knowledge entries are counted; ``context.md`` and every derived file (summaries,
abstracts, the manifest, the archive) are left out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from brv_vc.errors import NotFoundError
from brv_vc.tree import layout, store
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class FolderNode:
    """A folder: its entries (file names), sub-folders, and the entry count of its subtree."""

    name: str
    path: str
    count: int
    entries: tuple[str, ...]
    folders: tuple[FolderNode, ...]
    has_context: bool


def build_tree(project: Project, path: str = "", *,
               listing: Iterable[str] | None = None) -> FolderNode:
    """Returns the folder tree under ``path`` ('' = the whole context tree).

    ``listing``: the tree's file paths when the caller has them already (a resident
    process reads them from its index); by default the tree is walked.

    Raises:
        InvalidPathError: the path escapes the tree.
        NotFoundError: no such folder.
    """
    prefix = layout.clean_relpath(path, what="folder") if path.strip() not in ("", ".", "/") else ""
    if prefix and not project.path_of(prefix).is_dir():
        raise NotFoundError(
            f"no folder '{prefix}' in the context tree", hint="run 'brv tree' to list folders"
        )
    entries: dict[str, list[str]] = {}
    folders: set[str] = {prefix}
    contexts: set[str] = set()
    files = listing if listing is not None else (rel for rel, _ in store.walk(project))
    for rel in files:
        if prefix and not rel.startswith(prefix + "/"):
            continue
        if rel.split("/")[0] == layout.ARCHIVE_DIR:
            continue
        parent, _, name = rel.rpartition("/")
        kind = layout.kind_of(rel)
        if kind is layout.Kind.ENTRY:
            entries.setdefault(parent, []).append(name)
        elif kind is layout.Kind.CONTEXT:
            contexts.add(parent)
        else:
            continue
        while parent and parent != prefix and parent not in folders:
            folders.add(parent)
            parent = parent.rpartition("/")[0]
    children: dict[str, list[str]] = {}
    for folder in folders:
        if folder and folder != prefix:
            children.setdefault(folder.rpartition("/")[0], []).append(folder)
    return _node(prefix, children, entries, contexts)


def _node(
    path: str, children: dict[str, list[str]], entries: dict[str, list[str]], contexts: set[str]
) -> FolderNode:
    # children by parent, built once: scanning every folder for each one was quadratic
    subs = tuple(_node(child, children, entries, contexts)
                 for child in sorted(children.get(path, ())))
    own = tuple(sorted(entries.get(path, ())))
    return FolderNode(
        name=path.rpartition("/")[2] or ".",
        path=path,
        count=len(own) + sum(s.count for s in subs),
        entries=own,
        folders=subs,
        has_context=path in contexts,
    )
