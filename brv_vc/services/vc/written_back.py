"""Entries a plain ``git pull`` wrote back after brv removed them here: removed again, whole.

Trigger: the post-merge hook (``events._post``) of a merge that changed an entry brv had
deleted here, not yet committed (an agent's DELETE of it or of its folder, or a MERGE of it
away): git reads a missing tracked file as unchanged and writes the incoming version back,
exit 0. Why: the deletion was brv's last word on that entry (issue 35's 8 x 50 run lost two
writes so). Outcome: :func:`reapply` removes each such entry again, a MERGE's source folded
into its target first by the MERGE rule (``merged_away.folded``), one curate-log row each.

Kill-safe (the fold changes several files): every entry's fold is planned first, reading
only; then an intent record, ``.brv/state/pending/reapply-<pid>.json`` (tree/intents.py),
names each one (source, target, the incoming commit; a MERGE source's incoming text, a
DELETE's a hash only) with the fold's time; then the targets are written and the sources
removed, one entry after the other; then the audit rows; then the record goes. The next
process that takes the write lock (every command at its start, every writer, the next
post-merge hook that folds) rolls a record left by a kill forward (:func:`finish_reapply`,
from services/recovery.py; the next post-merge hook: :func:`finish_killed`): the same steps,
each done only if not done yet (a target that already holds the source is not rewritten, a
source already gone is not removed, a row already logged is not logged again), and says so.
Rolled forward rather than back: a MERGE source's incoming text is in the record, so the
result is the one the hook would have left. A kill before the record changed nothing: the
pull stands as plain git left it, the entry back with its incoming change (nothing lost, the
deletion not re-applied; ``brv vc pull`` would have refused that pull).
"""

from __future__ import annotations

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.services.vc.merged_away import REASON, Fold, entry_of, folded, holds, log_folds
from brv_vc.tree.fault import point
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo

# The post-merge hook imports this module on every pull that changes an entry: the MERGE
# rule, the entry format and the intent records are imported only once there is a fold.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from datetime import datetime
    from typing import Any

    from brv_vc.format.entry import Entry
    from brv_vc.lifecycle.curate_log import LogRow

KIND = "reapply"  # the intent record's kind (tree/leftovers.LOCKED_KINDS)
# the hook's rows: a removal of its own, which a later pull re-applies in turn (a merge's
# fold, merged_away.REASON, may be aborted with its merge: never re-applied)
WRITTEN_BACK = "written back by a plain git pull after brv removed it here: removed again"
HOW = "after git pull"


def reapply(project: Project, repo: KnowledgeRepo, orig: str, head: str,
            raw: Sequence[tuple[str, str, str, str]], now: datetime) -> tuple[Fold, ...]:
    """Removes again the entries a plain ``git pull`` (merge) wrote back after brv deleted them.

    ``raw``: the merge's change ``orig..head`` (``git.changed_entries``). An entry it changed
    that is present now and whose newest successful curate-log row about it or a folder
    above it, logged after ``orig``'s commit (in the same second: after the entry's own last
    commit in ``orig``; so the deletion was never committed: git wrote the file back), is a
    DELETE of it or of that folder, or a MERGE of it away: a MERGE source is folded into its
    target (``merged_away.folded``) and removed, a DELETE's entry removed. An entry deleted,
    committed and restored by a later commit is not touched (its deletion is older than
    ``orig``). Takes the write lock and git's ``index.lock`` as every brv writer; the targets
    are refreshed here (the hook refreshes what the merge changed).
    """
    from brv_vc.lifecycle.curate_log import removal_of
    from brv_vc.tree.statedb import STATE_DB

    present = [(rel, p) for status, p, _, _ in raw if status == "M"
               and (rel := repo.tree_path(p)) is not None and kind_of(rel) is Kind.ENTRY
               and (project.tree / rel).is_file()]
    if not present or not (project.state / STATE_DB).is_file():
        return ()
    made = git.commit_time(repo.workdir, orig)
    stamp = _iso(made) if made is not None else ""
    # each path's (entry's or folder's) newest row and its rank: one pass over the log's rows
    newest: dict[str, tuple[int, LogRow]] = {}
    for i, r in enumerate(_since(project, stamp) if stamp else []):
        for key in {r.path, *r.message.split()}:
            newest.setdefault(key, (i, r))
    jobs: list[tuple[str, str, str]] = []  # P, its repository path, the MERGE target ("")
    for rel, p in present:
        parts = rel.split("/")
        # the entry's own rows and its folders' (a folder DELETE): the newest decides, read
        # about the path it was found under (T's newest row may be "merged P into T": P's)
        found = min(((*hit, key) for n in range(1, len(parts) + 1)
                     if (hit := newest.get(key := "/".join(parts[:n]))) is not None),
                    key=lambda hit: hit[0], default=None)
        if found is None:
            continue
        _, row, key = found
        # an undone MERGE (an interrupted dream's) is no deletion; nor is a merge's fold,
        # whose merge may since have been aborted
        if row.status != "success" or row.reason == REASON:
            continue
        removal = removal_of(row.message, key)
        if removal is None:
            continue
        if row.time == stamp:  # the same second as orig: after the entry's own last commit?
            touched = git.commit_time(repo.workdir, orig, p)
            if touched is None or _iso(touched) >= row.time:
                continue
        jobs.append((rel, p, removal[1]))
    return _reapplied(project, repo, orig, head, jobs, now) if jobs else ()


def _iso(seconds: int) -> str:
    """A commit's time as the curate log writes its times (``clock.format_iso``)."""
    from datetime import UTC, datetime

    return format_iso(datetime.fromtimestamp(seconds, UTC))


def _since(project: Project, stamp: str) -> list[LogRow]:
    """The curate-log rows of outcomes logged at or after ``stamp``, newest first."""
    import sqlite3

    from brv_vc.lifecycle.curate_log import outcomes_since
    from brv_vc.tree import statedb

    try:
        conn = statedb.open_state(project)
        try:
            return outcomes_since(conn, stamp)
        finally:
            conn.close()
    except (BrvError, OSError, sqlite3.Error):
        return []


def _reapplied(project: Project, repo: KnowledgeRepo, orig: str, head: str,
               jobs: Sequence[tuple[str, str, str]], now: datetime) -> tuple[Fold, ...]:
    """Plans each job (reads only), records the plan, then carries it out (:func:`_carry`)."""
    from brv_vc.services.derived import refresh
    from brv_vc.tree import intents, writelock
    from brv_vc.vc import git_index_lock
    from brv_vc.vc.git.objects import blob_at

    stamp = format_iso(now)
    with writelock.hold(project), git_index_lock.holding(project):
        plan: list[dict[str, str]] = []
        for rel, path, target in jobs:
            try:
                data = (project.tree / rel).read_bytes()
            except OSError:
                continue  # gone meanwhile
            if target:
                # the target must still hold the source as it was before the pull: a MERGE
                # undone since (a rejected review, a reset, a dream undo) left no row, but no
                # fold either
                before = entry_of(blob_at(repo.workdir, orig, path), rel)
                current = _read(project, target)
                if (entry_of(data, rel) is None or before is None or current is None
                        or not holds(current, before, rel, target)):
                    continue
            # a MERGE's text (folded in even if the source is gone), a DELETE's hash only
            seen = ({"text": data.decode("utf-8", "surrogateescape")} if target
                    else {"hash": _digest(data)})
            plan.append({"source": rel, "target": target,
                         "commit": git.last_change(repo.workdir, head, path)[0], **seen})
        if not plan:
            return ()
        record = intents.begin(project, KIND, {"stamp": stamp, "head": head, "folds": plan})
        point("reapply-recorded")
        done = _carry(project, plan, stamp)
        intents.done(record)
    targets = [f.target for f in done if f.target]
    if targets:
        refresh(project, targets, now)
    return done


def _digest(data: bytes) -> str:
    """A DELETE step's record of the file the hook meant to remove (no entry text kept)."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def _recorded(step: dict[str, str], data: bytes) -> bool:
    """Whether ``data`` is the source as the hook recorded it (its text, or its hash)."""
    if step["target"]:
        return data == step["text"].encode("utf-8", "surrogateescape")
    return _digest(data) == step["hash"]


def _read(project: Project, rel: str) -> Entry | None:
    """The entry ``rel`` as the work tree holds it (None: missing or not an entry)."""
    try:
        return entry_of((project.tree / rel).read_bytes(), rel)
    except OSError:
        return None


def _carry(project: Project, plan: Sequence[dict[str, str]], stamp: str) -> tuple[Fold, ...]:
    """Carries out a recorded plan, each step only if not done yet, then logs it once.

    For each source in turn: its target gets the source folded in (the source as the work
    tree holds it, else as recorded) unless it holds it already, then the source is removed.
    A target that is gone or no entry keeps its source (nothing is lost): that fold is not
    done.
    """
    from brv_vc.format.entry import serialize_entry
    from brv_vc.services.curate import remove
    from brv_vc.tree.store import write_atomic

    done: list[Fold] = []
    for step in plan:
        rel, target = step["source"], step["target"]
        if target:
            current = _read(project, target)
            try:
                data = (project.tree / rel).read_bytes()
            except OSError:
                data = step["text"].encode("utf-8", "surrogateescape")
            changed = entry_of(data, rel)
            if current is None or changed is None:
                continue
            if not holds(current, changed, rel, target):
                write_atomic(project.tree / target, serialize_entry(
                    folded(current, changed, rel, target, stamp)))
            point("reapply-written")
        remove(project, project.tree / rel)
        point("reapply-removed")
        done.append(Fold(rel, target, step["commit"]))
    log_folds(project, done, stamp, HOW, WRITTEN_BACK)
    point("reapply-logged")
    return tuple(done)


def finish_reapply(project: Project, data: dict[str, Any]) -> tuple[list[str], list[str]]:
    """Rolls forward the record of a hook killed mid-fold (the caller holds the write lock).

    A step acts on its source only if the source is as the hook recorded it, or as a later
    pull wrote it back (HEAD's copy, HEAD being the recorded pull's or after it); a source
    changed since (by hand, another branch checked out) is left as it is, and said. A source
    already gone is finished (its target folded) only on the recorded pull's line.

    Returns:
        One line an entry (finished, as :func:`describe` says it, or left and why), and the
        tree paths written or removed (for the derived refresh).

    Raises:
        OSError: a file could not be written (the record stays; the next command retries).
        ValueError, KeyError, TypeError: not a record of this kind.
    """
    from brv_vc.vc import git_index_lock

    plan = [{key: str(step[key]) for key in ("source", "target", "commit",
                                             "text" if step["target"] else "hash")}
            for step in data["folds"]]
    head = str(data["head"])
    # git's index.lock too, as the hook took it: no git rewrites a source between the look
    # and the removal (a hook of a later pull: that git holds no lock while its hook runs)
    with git_index_lock.holding(project):
        return _finish(project, plan, head, str(data["stamp"]))


def _finish(project: Project, plan: list[dict[str, str]], head: str,
            stamp: str) -> tuple[list[str], list[str]]:
    """:func:`finish_reapply` under git's lock: which steps to take, then the carry."""
    from brv_vc.vc.repo import locate

    repo = locate(project)
    later: bool | None = None  # HEAD is the recorded pull's or after it (None: git can't say)
    steps: list[dict[str, str]] = []
    left: list[str] = []
    for step in plan:
        try:
            again: bytes | None = (project.tree / step["source"]).read_bytes()
        except OSError:
            again = None
        if again is not None and _recorded(step, again):
            steps.append(step)
            continue
        if later is None:
            later = _after(repo, head)
        if later is False:
            if again is not None or step["target"]:  # a DELETE of a file gone: nothing left
                left.append(_left(step, again is None, "HEAD is no longer that pull's nor "
                                                       "after it: another branch is checked out"))
        elif again is None:
            steps.append(step)  # removed by then: its target is folded, if not yet
        elif later and (newer := _later_pull(repo, step["source"], again)):
            step["commit"] = newer  # a later pull wrote it back again: that commit's text
            steps.append(step)
        else:
            left.append(_left(step, False, "its text is neither the one that pull wrote "
                                           "back nor HEAD's"))
    done = _carry(project, steps, stamp)
    lines = [f"finished the re-application that a killed post-merge hook left: "
             f"{describe(repo, fold)}" for fold in done]
    return lines + left, [p for fold in done for p in (fold.source, fold.target) if p]


def _after(repo: KnowledgeRepo, head: str) -> bool | None:
    """Whether HEAD is ``head`` or after it (None: git cannot say)."""
    try:
        now = git.commit_of(repo.workdir, "HEAD")
        return now is not None and git.is_ancestor(repo.workdir, head, now)
    except BrvError:
        return None


def _later_pull(repo: KnowledgeRepo, rel: str, data: bytes) -> str:
    """The commit that last changed ``rel`` when ``data`` is HEAD's copy of it ("": not)."""
    from brv_vc.vc.git.objects import blob_at

    path = repo.repo_path(rel)
    try:
        if blob_at(repo.workdir, "HEAD", path) != data:
            return ""
        return git.last_change(repo.workdir, "HEAD", path)[0]
    except (BrvError, KeyError):  # no git, or no HEAD to read
        return ""


def _left(step: dict[str, str], gone: bool, why: str) -> str:
    """The line on a recorded step the roll-forward does not take: the entry, and why."""
    rel, target = step["source"], step["target"]
    if gone:  # a MERGE's source gone: its target is what is left
        return (f"left {target} as it is, {rel} not folded in: the tree changed since a "
                f"killed post-merge hook recorded that fold ({why})")
    into = f", {target} not written" if target else ""
    return (f"left {rel} as it is{into}: it changed since a killed post-merge hook recorded "
            f"it for removal ({why})")


def finish_killed(project: Project, now: datetime) -> tuple[str, ...]:
    """Rolls forward the records of killed hooks, unless a live writer holds the lock.

    The post-merge hook runs it before its own fold: this pull may have written back the
    same entries, and no brv command may have run since the kill. Returns the lines to say.
    """
    from brv_vc.services.derived import refresh
    from brv_vc.tree import intents, writelock

    if not intents.records(project, KIND):  # another writer's step: the next command's
        return ()
    lines: list[str] = []
    touched: list[str] = []
    with writelock.hold(project, wait=False) as taken:
        for path, data in intents.records(project, KIND) if taken else []:
            try:
                said, written = finish_reapply(project, data)
            except (ValueError, KeyError, TypeError):  # not such a record: it never began
                said, written = [], []
            lines += said
            touched += written
            intents.done(path)
    if touched:
        refresh(project, touched, now)
    return tuple(lines)


def describe(repo: KnowledgeRepo, fold: Fold) -> str:
    """One line on an entry :func:`reapply` kept deleted, naming the incoming commit."""
    what = (f"its change is folded into {fold.target}, where it was merged" if fold.target
            else "it was deleted here")
    return (f"git wrote back {fold.source}, which brv had removed here; removed again, "
            f"{what} (the incoming text: git show {fold.commit[:12]}:{repo.repo_path(fold.source)})")
