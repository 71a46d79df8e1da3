"""``brv archive`` / ``brv restore``: move low-value drafts into the archive and back.

The summary layer does the file work; this service then runs refresh so the search index,
``_index.md`` summaries and the manifest follow (the stub becomes searchable).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.services.derived.refreshing import RefreshReport, refresh
from brv_vc.summary.archive import Candidate, archive_entry, candidates, restore_entry
from brv_vc.summary.archive_files import ArchiveRecord
from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git_index_lock


@dataclass(frozen=True)
class ArchiveResult:
    """An archived (or restored) entry and the refresh problems, if any."""

    record: ArchiveRecord
    problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class CandidatesResult:
    """Entries that qualify for the archive (draft, decayed importance < 35)."""

    candidates: tuple[Candidate, ...]


def _paths(record: ArchiveRecord) -> list[str]:
    return [record.original_path, record.stub_path, record.full_path]


def archive(project: Project, path: str, now: datetime) -> ArchiveResult:
    """Archives one entry (see :func:`brv_vc.summary.archive.archive_entry`), then refreshes.

    Raises:
        InvalidPathError: not an entry path.
        NotFoundError: no such entry.
    """
    with writelock.hold(project):  # one writer at a time
        with git_index_lock.holding(project):  # and no git rewriting the tree meanwhile
            record = archive_entry(project, path, now)
        report: RefreshReport = refresh(project, _paths(record), now)
    return ArchiveResult(record, report.problems)


def list_candidates(project: Project, now: datetime) -> CandidatesResult:
    """Lists archive candidates, lowest importance first."""
    return CandidatesResult(tuple(candidates(project, now)))


def restore(project: Project, path: str, now: datetime) -> ArchiveResult:
    """Restores an archived entry byte for byte, then refreshes.

    Raises:
        NotFoundError: nothing archived there.
        ConflictError: an entry exists at the original path.
    """
    with writelock.hold(project):
        with git_index_lock.holding(project):
            record = restore_entry(project, path, now)
        report = refresh(project, _paths(record), now)
    return ArchiveResult(record, report.problems)
