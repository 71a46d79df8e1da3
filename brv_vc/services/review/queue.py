"""``brv review``: list, show, approve and reject reviewable changes (seed 001 "Review").

Recording keeps a backup of every replaced file; approving keeps the change and drops its
backups; rejecting restores the backups byte for byte (or removes an added file) and
refreshes derived files. A decision names entries, files or a group (kind, domain, dream;
see ``groups``). Rejecting a change that later changes built on (later entries touching the
same files, pending or approved) undoes those too, newest first, and the answer names them:
any pending change can be rejected (issue 37: "reject 49 first" when 49 was approved was a
dead end).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from brv_vc.clock import format_iso
from brv_vc.errors import ConflictError, NotFoundError, UsageError
from brv_vc.services.derived import refresh
from brv_vc.services.review import entries as rows
from brv_vc.services.review.backups import (
    FileChange,
    check_chain,
    revert,
    review_store,
)
from brv_vc.services.review.entries import PENDING, ReviewEntry
from brv_vc.services.review.groups import Group, Pulled, dependents, still_needed
from brv_vc.services.review.settings import is_enabled
from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.vc import git_index_lock

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.vc.semdiff import EntryDiff


@dataclass(frozen=True)
class ReviewList:
    """Entries of the queue (pending ones unless asked otherwise)."""

    enabled: bool
    entries: tuple[ReviewEntry, ...]


@dataclass(frozen=True)
class ReviewDetail:
    """One entry with the semantic diff of each file it touched."""

    entry: ReviewEntry
    diffs: tuple[EntryDiff, ...]


@dataclass(frozen=True)
class Decision:
    """What approve / reject did (``dry_run``: would do; nothing changed).

    ``entries`` are the ones named (by id, file or group); ``also`` the later ones a reject
    undid with them because they built on one of them.
    """

    action: str  # approved | rejected
    entries: tuple[ReviewEntry, ...]
    restored: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    also: tuple[Pulled, ...] = ()
    dry_run: bool = False


def record(project: Project, now: datetime, source: str, summary: str, reason: str, task: str,
           changes: Sequence[FileChange], *, pending: bool = True, kind: str = "") -> int | None:
    """Adds a change to the queue when review is enabled (else records nothing).

    The changes' backups must already be in :func:`review_store` (``changes_since`` with it).

    Returns:
        The new entry's id, or None when review is disabled or nothing changed.
    """
    if not changes or not is_enabled(project):
        return None
    conn = open_state(project)
    try:
        status = PENDING if pending else rows.APPROVED
        return rows.insert(conn, format_iso(now), source, summary, reason, task, status, changes,
                           kind)
    finally:
        conn.close()


def pending(project: Project, *, all_entries: bool = False) -> ReviewList:
    """The pending entries (``all_entries``: every entry, decided ones too)."""
    conn = open_state(project)
    try:
        found = rows.select(conn, status=None if all_entries else PENDING)
    finally:
        conn.close()
    return ReviewList(is_enabled(project), tuple(found))


def pending_for(project: Project, paths: Sequence[str]) -> tuple[ReviewEntry, ...]:
    """Pending entries touching any of ``paths`` (what a commit or push would share)."""
    if not is_enabled(project):
        return ()
    wanted = set(paths)
    return tuple(e for e in pending(project).entries if wanted & set(e.paths))


def _get(project: Project, ids: Sequence[int]) -> list[ReviewEntry]:
    conn = open_state(project)
    try:
        found = {e.id: e for e in rows.select(conn, ids=list(ids))}
    finally:
        conn.close()
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFoundError(
            f"no review entry with id {', '.join(map(str, missing))}",
            hint="list them with 'brv review pending' (ids are the numbers in the first column)",
        )
    return [found[i] for i in ids]


def show(project: Project, entry_id: int) -> ReviewDetail:
    """One entry and the semantic diff of its files (the ``vc diff`` comparison).

    Raises:
        NotFoundError: no such entry.
    """
    from brv_vc.vc.semdiff import EntryDiff, diff_entry  # only 'show' pays for it

    entry = _get(project, [entry_id])[0]
    store = review_store(project)
    diffs = []
    for change in entry.changes:
        old = store.get(change.before) if change.before else None
        new = store.get(change.after) if change.after else None
        if (change.before and old is None) or (change.after and new is None):
            diffs.append(EntryDiff(change.path, "modified", note="backup missing"))
            continue
        diff = diff_entry(change.path, old, new)
        if not diff.empty:
            diffs.append(diff)
    return ReviewDetail(entry, tuple(diffs))


def _select(project: Project, group: Group) -> list[ReviewEntry]:
    if group.empty:
        raise UsageError("name the entries: ID..., --file PATH, --kind, --domain, --dream or --all",
                         hint="see them with 'brv review pending'")
    chosen = _get(project, group.ids) if group.ids else []
    if group.files or group.everything or group.filtered:
        for entry in pending(project).entries:
            if set(group.files) & set(entry.paths) or (
                    (group.everything or group.filtered) and group.matches(entry)):
                chosen.append(entry)
    if group.files and not any(set(group.files) & set(e.paths) for e in chosen):
        raise NotFoundError(f"no pending review entry touches {', '.join(group.files)}",
                            hint="see them with 'brv review pending'")
    if group.filtered and not group.ids and not group.files and not chosen:
        raise NotFoundError(f"no pending review entry in the group ({group.describe()})",
                            hint="see them with 'brv review pending' (kinds, domains and "
                                 "dream ids are in its --json)")
    unique = {e.id: e for e in chosen}
    decided = [e for e in unique.values() if e.status != PENDING]
    if decided:
        first = decided[0]
        raise ConflictError(f"review entry {first.id} is already {first.status}",
                            hint="only pending entries can be approved or rejected")
    return [unique[i] for i in sorted(unique)]


def _group(ids: Sequence[int], files: Sequence[str], everything: bool,
           group: Group | None) -> Group:
    named = group or Group()
    return Group(tuple(ids) + named.ids, tuple(files) + named.files,
                 everything or named.everything, named.kind, named.domain, named.task)


def approve(project: Project, now: datetime, ids: Sequence[int] = (), *,
            files: Sequence[str] = (), everything: bool = False, group: Group | None = None,
            dry_run: bool = False) -> Decision:
    """Keeps the changes and drops backups nothing else needs.

    Raises:
        UsageError: nothing named.  NotFoundError: an unknown id, an empty group.
        ConflictError: an entry is not pending.
    """
    with writelock.hold(project):  # one writer at a time
        chosen = _select(project, _group(ids, files, everything, group))
        if dry_run:
            return Decision("approved", tuple(chosen), dry_run=True)
        conn = open_state(project)
        try:
            rows.decide(conn, [e.id for e in chosen], rows.APPROVED, format_iso(now))
        finally:
            conn.close()
        _collect(project)
        return Decision("approved", tuple(chosen))


def reject(project: Project, now: datetime, ids: Sequence[int] = (), *,
           files: Sequence[str] = (), everything: bool = False, group: Group | None = None,
           dry_run: bool = False) -> Decision:
    """Restores the files of the entries and of later ones that built on them, byte for byte.

    Newest entry first, then refreshes derived files.

    Raises:
        UsageError, NotFoundError: as :func:`approve`.
        ConflictError: a file changed since outside the queue (nothing is changed).
        StateError: a backup is missing (nothing is changed).
    """
    with writelock.hold(project):  # one writer at a time
        chosen = _select(project, _group(ids, files, everything, group))
        if not chosen:  # --all with nothing pending: nothing to undo
            return Decision("rejected", (), dry_run=dry_run)
        conn = open_state(project)
        try:
            pulled = dependents(rows.select(conn, since=chosen[0].id), chosen)
            if dry_run:
                return Decision("rejected", tuple(chosen), also=tuple(pulled), dry_run=True)
            going = [*chosen, *(p.entry for p in pulled)]
            store = review_store(project)
            # newest first: each entry's "after" is what the next newer one found as "before"
            ordered = sorted(going, key=lambda e: -e.id)
            restored: list[str] = []
            with git_index_lock.holding(project):  # no git rewriting the tree in between
                check_chain(project, [c for e in reversed(ordered) for c in e.changes],
                            store)  # oldest first
                for entry in ordered:
                    restored.extend(revert(project, entry.changes, store))
            rows.decide(conn, [e.id for e in going], rows.REJECTED, format_iso(now))
        finally:
            conn.close()
        problems = refresh(project, restored, now).problems
        _collect(project)
        return Decision("rejected", tuple(chosen), tuple(dict.fromkeys(restored)), problems,
                        tuple(pulled))


def dismiss(project: Project, now: datetime, task: str) -> tuple[int, ...]:
    """Marks a task's pending entries rejected; the caller already restored their files.

    Used by ``brv dream --undo``, which puts back everything the dream touched at once.
    """
    with writelock.hold(project):  # one writer at a time
        conn = open_state(project)
        try:
            ids = [e.id for e in rows.select(conn, status=PENDING, task=task)]
            rows.decide(conn, ids, rows.REJECTED, format_iso(now))
        finally:
            conn.close()
        _collect(project)
        return tuple(ids)


def withdraw(project: Project, now: datetime, ids: Sequence[int]) -> None:
    """Marks entries rejected whose change was already undone (an interrupted dream step)."""
    conn = open_state(project)
    try:
        rows.decide(conn, list(ids), rows.REJECTED, format_iso(now))
    finally:
        conn.close()
    _collect(project)


def _collect(project: Project) -> None:
    """Drops backups that no reject can need any more (see ``groups.still_needed``)."""
    conn = open_state(project)
    try:
        waiting = rows.select(conn, status=PENDING)
        keep = still_needed(rows.select(conn, since=waiting[0].id)) if waiting else set()
    finally:
        conn.close()
    review_store(project).keep_only(keep)
