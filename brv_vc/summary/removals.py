"""Derived files of entries that are gone (deleted or moved by hand, by plain git, by brv).

The refresh after a change calls these for the changed paths: an entry that no longer
exists loses its abstract and overview at once (no queue: nothing needs generating), and
once the folder summaries are regenerated, the folders it leaves empty are pruned.
"""

from __future__ import annotations

from collections.abc import Iterable

from brv_vc.summary.records import Records
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.tree.store import remove_empty_parents


def gone_entries(project: Project, paths: Iterable[str]) -> list[str]:
    """The entry paths among ``paths`` (outside the archive) that no longer exist."""
    return [
        p for p in paths
        if kind_of(p) is Kind.ENTRY  # never under _archived/
        and not (project.tree / p).exists()
    ]


def drop_siblings(project: Project, entries: Iterable[str], records: Records) -> list[str]:
    """Deletes the abstract and overview of each gone entry; returns the paths deleted."""
    deleted = []
    for rel in entries:
        from brv_vc.summary.abstracts import siblings  # loaded only when an entry is gone

        for sibling in siblings(rel):
            try:
                (project.tree / sibling).unlink()
                deleted.append(sibling)
            except FileNotFoundError:
                pass
            records.drop(sibling)
    return deleted


def prune(project: Project, entries: Iterable[str]) -> None:
    """Removes the folders the gone entries leave empty, up to (not including) the tree root."""
    for rel in sorted(set(entries), key=lambda p: -p.count("/")):
        remove_empty_parents(project, (project.tree / rel).parent)
