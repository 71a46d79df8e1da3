"""An entry MERGEd away on one side and changed on the other: folded into the target, kept deleted.

Trigger: git undoes a deletion in two ways (issue 35, one lost write in each git mode of the
8 x 50 team run). ``brv vc merge/pull`` of a branch that changed an entry the other side
MERGEd away meets a modify/delete conflict (either answer drops one of two reported writes);
a plain ``git pull`` whose incoming commits change an entry deleted here (not yet committed)
writes it back, exit 0 (git reads a missing tracked file as unchanged). Why: a MERGE says
"this knowledge now lives in the target"; a change of the source made meanwhile belongs
there too. Outcome: :func:`fold_conflicts` (the merge's conflict path, ``sync._merge``) and
``services/vc/written_back.py`` (the post-merge hook, ``pulled_back.written_back``)
write the target folded with the
changed source by the MERGE rule itself (``services/curate/merge.py``: ``merge_entries``,
``relink``), remove the source, and log each in the curate log. A DELETE on one side stays
a conflict in a merge (no target holds the entry); written back by a plain pull, it is
removed again. :func:`fold_conflicts` runs under the caller's write lock (``brv vc pull`` /
``merge`` / ``resolve``) and takes git's ``index.lock`` from its read of the conflicts to its
last write, then stages (git's ``add`` takes the lock itself); ``written_back.reapplied``
takes both, as every brv writer, and is kill-safe (an intent record, rolled forward:
services/vc/rolled_forward.py).
"""

from __future__ import annotations

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.record import NamedTuple
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo

# The post-merge hook imports this module on every pull that changes an entry: the MERGE
# rule, the entry format and the status records are imported only once there is a fold.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime

    from brv_vc.format.entry import Entry
    from brv_vc.vc.status import Change

REASON = "merged away on one side, changed on the other: the change is folded into the target"


class Fold(NamedTuple):
    """One entry kept deleted: its change folded into ``target`` ("": a DELETE, removed)."""

    source: str
    target: str
    commit: str  # the commit whose change of ``source`` was folded (or removed again)


def settled(entry: Entry, source: str, target: str) -> Entry:
    """``entry`` as a MERGE of ``source`` into ``target`` leaves it: no link to either."""
    from brv_vc.services.curate import relink

    return relink(relink(entry, source, None), target, None)


def holds(target: Entry, source: Entry, source_rel: str, target_rel: str) -> bool:
    """Whether ``target`` already holds ``source``.

    Decided by the MERGE rule itself, not by a word overlap: folding ``source`` in changes
    nothing.
    """
    from brv_vc.services.curate import merge_entries

    stamp = target.updated_at
    once = settled(merge_entries(target, target, stamp), source_rel, target_rel)
    return settled(merge_entries(target, source, stamp), source_rel, target_rel) == once


def folded(target: Entry, changed: Entry, source_rel: str, target_rel: str,
           stamp: str) -> Entry:
    """``target`` with the changed source folded in (the MERGE rule), links to it dropped."""
    from brv_vc.services.curate import merge_entries

    return settled(merge_entries(target, changed, stamp), source_rel, target_rel)


def entry_of(data: bytes | None, rel: str) -> Entry | None:
    """``data`` parsed as entry ``rel`` (None: no data, or not an entry)."""
    from brv_vc.format.entry import parse_entry

    if data is None:
        return None
    try:
        return parse_entry(data, file=rel, remember=False)
    except BrvError:
        return None


def settle(project: Project, repo: KnowledgeRepo, old: str | None, target: str,
           conflicts: tuple[Change, ...], now: datetime) -> tuple[Change, ...]:
    """The conflicts a merge of ``target`` into ``old`` leaves once folded (:func:`fold_conflicts`).

    None left: the merge is committed (git's message), as a clean one.

    Raises:
        ConflictError: git held its ``index.lock`` past ``BRV_GIT_WAIT``: the merge stands
            stopped on its conflicts, none folded (``brv vc resolve`` folds them later).
    """
    from brv_vc.vc.status import MODIFY_DELETE

    if old is None or not any(c.change in MODIFY_DELETE for c in conflicts):
        return conflicts
    from brv_vc.errors import ConflictError
    from brv_vc.services.vc.changes import status
    from brv_vc.vc.git.commit import conclude_merge
    from brv_vc.vc.git_index_lock import GitLockHeld

    try:
        folds = fold_conflicts(project, repo, old, target, conflicts, now)
    except GitLockHeld as exc:  # the merge itself is done: say what stands
        raise ConflictError(
            f"the merge stopped on {len(conflicts)} conflict(s) and none was folded: git "
            f"held {exc.lock} (a git command rewriting the work tree)",
            file=exc.file,
            hint="once that git command has finished, 'brv vc resolve' folds what brv "
                 "merged away, then 'brv vc merge --continue' (or 'brv vc merge --abort')",
        ) from exc
    if not folds:
        return conflicts
    left = status(repo).conflicts or elsewhere(repo)
    if not left:
        conclude_merge(repo)
    return left


def elsewhere(repo: KnowledgeRepo) -> tuple[Change, ...]:
    """The unmerged paths outside the knowledge (in-project: code).

    git's merge holds them open too: nothing is concluded while one is left.
    """
    if not repo.in_project:
        return ()
    from brv_vc.vc.git import stage
    from brv_vc.vc.status import Change

    return tuple(Change("unmerged (not knowledge)", p)
                 for p in sorted(stage.unmerged(repo, everywhere=True))
                 if repo.tree_path(p) is None)


def fold_conflicts(project: Project, repo: KnowledgeRepo, ours: str, theirs: str,
                   conflicts: Sequence[Change], now: datetime) -> tuple[Fold, ...]:
    """Resolves the modify/delete conflicts whose deleting side MERGEd the entry away.

    For an entry P deleted on one side and changed on the other, the MERGE's target T is the
    one entry the deleting side changed since the merge base (one diff base..side) whose
    content there already holds P's base version (:func:`holds`). T as merged becomes T with
    P's changed version folded in; P is removed; both are staged. No such T, or several: the
    conflict stays (a DELETE, or a true conflict).

    git's ``index.lock`` is held (vc/git_index_lock.py) from the read of the conflicts' stages
    to the last write, so no git command (a ``git checkout -- T``, ``git restore``, an add
    with a clean filter) rewrites T or P between the fold's read and its write; the staging
    comes after, as ``brv vc add``'s (git's ``add`` takes the lock itself).

    Raises:
        ConflictError: git held ``index.lock`` past ``BRV_GIT_WAIT``; nothing was changed.
    """
    from brv_vc.vc import git_index_lock
    from brv_vc.vc.git import stage
    from brv_vc.vc.git.merge import base as merge_base
    from brv_vc.vc.status import MODIFY_DELETE

    wanted = {c.path: c.change == "deleted by us" for c in conflicts
              if c.change in MODIFY_DELETE and kind_of(c.path) is Kind.ENTRY}
    base = merge_base(repo, ours, theirs) if wanted else None
    if base is None:
        return ()
    stamp = format_iso(now)
    done: list[Fold] = []
    try:
        with git_index_lock.holding(project):
            _fold_all(project, repo, (ours, theirs, base), wanted, stamp, done)
    finally:  # the folds written, even when a later one failed: staged and logged
        staged = (stage.stage_all(repo, [repo.repo_path(p) for f in done
                                         for p in (f.target, f.source)]) if done else None)
        log_folds(project, done, stamp, "by the merge")
    if staged is not None and staged.returncode != 0:
        from brv_vc.errors import ConflictError

        paths = " ".join(repo.repo_path(p) for f in done for p in (f.target, f.source))
        raise ConflictError(
            f"folded {len(done)} entr{'y' if len(done) == 1 else 'ies'} merged away, but git "
            f"could not stage them: {staged.stderr.strip() or 'git add failed'}",
            hint=f"once git can write its index, run: git add -A -- {paths}",
        )
    return tuple(done)


def _fold_all(project: Project, repo: KnowledgeRepo, sides: tuple[str, str, str],
              wanted: dict[str, bool], stamp: str, done: list[Fold]) -> None:
    """:func:`fold_conflicts`'s reads and writes, under git's lock; each fold into ``done``.

    A fold is appended as soon as it is written, so the caller stages and logs it even when
    a later one fails.

    ``sides``: ours, theirs and their merge base; ``wanted``: each conflict's entry, True
    when our side deleted it.
    """
    from brv_vc.vc.git import stage

    ours, theirs, base = sides
    stages = stage.unmerged_stages(repo)
    unmerged = {rel for p in stages if (rel := repo.tree_path(p)) is not None}
    changed_on: dict[str, list[tuple[str, str]]] = {}
    jobs: list[tuple[str, str, str, str]] = []  # P, the deleting side, P's base and changed blobs
    for rel, by_us in wanted.items():
        blobs = stages.get(repo.repo_path(rel), {})
        side = ours if by_us else theirs
        if 1 not in blobs or (3 if by_us else 2) not in blobs:
            continue
        if side not in changed_on:  # the entries that side changed, as that side has them
            changed_on[side] = [
                (t, blob) for status, p, blob, _ in git.changed_entries(repo.workdir, base, side)
                if status in ("M", "A") and (t := repo.tree_path(p)) is not None
                and kind_of(t) is Kind.ENTRY and t not in unmerged]
        jobs.append((rel, side, blobs[1], blobs[3 if by_us else 2]))
    data = git.read_blobs(repo.workdir, [
        *(b for _, _, one, two in jobs for b in (one, two)),
        *(blob for rows in changed_on.values() for _, blob in rows)])
    parsed = {blob: entry_of(data.get(blob), t) for rows in changed_on.values() for t, blob in rows}
    for rel, side, base_blob, changed_blob in jobs:
        before, after = entry_of(data.get(base_blob), rel), entry_of(data.get(changed_blob), rel)
        if before is None or after is None:
            continue
        found = [t for t, blob in changed_on[side]
                 if (entry := parsed[blob]) is not None and holds(entry, before, rel, t)]
        if len(found) != 1:
            continue
        target = found[0]
        if _fold(project, rel, target, after, stamp):
            done.append(Fold(rel, target, theirs if side == ours else ours))


def _fold(project: Project, source: str, target: str, changed: Entry, stamp: str) -> bool:
    """Writes ``target`` (as the work tree holds it) with ``changed`` folded in, removes ``source``.

    False, changing nothing, when the target cannot be read.
    """
    from brv_vc.format.entry import serialize_entry
    from brv_vc.services.curate import remove
    from brv_vc.tree.store import write_atomic

    try:
        current = (project.tree / target).read_bytes()
    except OSError:
        return False
    entry = entry_of(current, target)
    if entry is None:
        return False
    write_atomic(project.tree / target, serialize_entry(folded(entry, changed, source, target,
                                                                stamp)))
    remove(project, project.tree / source)
    return True


def log_folds(project: Project, folds: Sequence[Fold], stamp: str, how: str,
         reason: str = REASON) -> None:
    """One curate-log row a fold (or a DELETE removed again), each logged once.

    A row already there (the same time, operation, path and message: a fold finished after a
    kill that came once its rows were written) is not appended again.
    """
    if not folds:
        return
    import sqlite3

    from brv_vc.lifecycle import curate_log as log
    from brv_vc.tree import statedb

    rows = [log.LogRow(stamp, "MERGE" if f.target else "DELETE", f.source, "success", reason,
                       f"{log.merge_message(f.source, f.target)} again {how} (the change of "
                       f"{f.commit[:12]} folded in)" if f.target else
                       f"{log.delete_message(f.source)} again {how} (changed by {f.commit[:12]})")
            for f in folds]
    try:
        conn = statedb.open_state(project)
        try:
            there = {(r.time, r.type, r.path, r.message) for r in log.outcomes_since(conn, stamp)}
            log.append(conn, [r for r in rows if (r.time, r.type, r.path, r.message) not in there])
        finally:
            conn.close()
    except (BrvError, OSError, sqlite3.Error):
        pass  # the audit trail is best effort here: the tree is already right
