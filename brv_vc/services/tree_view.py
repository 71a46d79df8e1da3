"""``brv tree``: the hierarchy of the context tree with entry counts per folder.

Only knowledge entries are counted; ``context.md`` and every derived file (summaries,
abstracts, the manifest, the archive) are left out.
"""

from __future__ import annotations

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


def build_tree(project: Project, path: str = "") -> FolderNode:
    """Returns the folder tree under ``path`` ('' = the whole context tree).

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
    for rel, _ in store.walk(project):
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
        while parent and parent != prefix:
            folders.add(parent)
            parent = parent.rpartition("/")[0]
    return _node(prefix, folders, entries, contexts)


def _node(
    path: str, folders: set[str], entries: dict[str, list[str]], contexts: set[str]
) -> FolderNode:
    children = sorted(f for f in folders if f and f.rpartition("/")[0] == path and f != path)
    subs = tuple(_node(child, folders, entries, contexts) for child in children)
    own = tuple(sorted(entries.get(path, ())))
    return FolderNode(
        name=path.rpartition("/")[2] or ".",
        path=path,
        count=len(own) + sum(s.count for s in subs),
        entries=own,
        folders=subs,
        has_context=path in contexts,
    )
