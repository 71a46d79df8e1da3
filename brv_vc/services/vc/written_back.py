"""Entries a plain ``git pull`` wrote back after brv removed them here: removed again, whole.

Trigger: the post-merge hook (``events._post``) of a merge that changed an entry brv had
deleted here, not yet committed (an agent's DELETE of it or of its folder, or a MERGE of it
away): git reads a missing tracked file as unchanged and writes the incoming version back,
exit 0. Why: the deletion was brv's last word on that entry (issue 35's 8 x 50 run lost two
writes so). Outcome: the hooks (``pulled_back.written_back``) remove each such entry again, a MERGE's source folded
into its target first by the MERGE rule (``merged_away.folded``), one curate-log row each.

Kill-safe (the fold changes several files): every entry's fold is planned first, reading
only; then an intent record, ``.brv/state/pending/reapply-<pid>.json`` (tree/intents.py),
names each one (source, target, the incoming commit; a MERGE source's incoming text, a
DELETE's a hash only) with the fold's time; then the targets are written and the sources
removed, one entry after the other; then the audit rows; then the record goes. The next
process that takes the write lock (every command at its start, every writer, the next
post-merge hook that folds) rolls a record left by a kill forward (services/vc/
rolled_forward.py): the same steps (:func:`carry`), on sources still as the hook saw them,
each done only if not done yet (a target that already holds the source is not rewritten, a
source already gone is not removed, a row already logged is not logged again), and says so.
Rolled forward rather than back: a MERGE source's incoming text is in the record, so the
result is the one the hook would have left. A kill before the record changed nothing: the
pull stands as plain git left it, the entry back with its incoming change (nothing lost, the
deletion not re-applied; ``brv vc pull`` would have refused that pull). An entry a person put
back by hand (``git restore``) is kept once a brv command has read it into the index
(:func:`seen_back`).

``git pull --rebase`` refuses over such a deletion, unless autostash is set: then git pulls
with the deletion stashed and its apply, after the hook (post-merge of a fast-forward,
post-rewrite of a rebase: both re-apply here), stops on the entry. A DELETE's entry is removed
again; a MERGE's source is not (its target's fold is still in the stash): :func:`autostashed`
names each one left, with what decides it (``brv vc resolve`` folds a MERGE's source). Only
the deletions the autostash holds count there: the log's rule does not tell a
deletion committed during the rebase, or one the person undid before it, from a stashed one.
"""

from __future__ import annotations

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo

# The post-merge hook imports this module on every pull that changes an entry: the MERGE
# rule (merged_away), the entry format, the fault points and the intent records are imported
# only once the log holds a removal of a changed entry, or there is a fold.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from datetime import datetime

    from brv_vc.format.entry import Entry
    from brv_vc.lifecycle.curate_log import LogRow
    from brv_vc.services.vc.merged_away import Fold

KIND = "reapply"  # the intent record's kind (tree/leftovers.LOCKED_KINDS)
# the hook's rows: a removal of its own, which a later pull re-applies in turn (a merge's
# fold, merged_away.REASON, may be aborted with its merge: never re-applied)
WRITTEN_BACK = "written back by a plain git pull after brv removed it here: removed again"
HOW = "after git pull"


def deleted_here(project: Project, repo: KnowledgeRepo, orig: str,
                 raw: Sequence[tuple[str, str, str, str]]) -> list[tuple[str, str, str]]:
    """The entries of ``raw`` git wrote back after brv deleted them here: the rule.

    ``raw``: the merge's change ``orig..head`` (``git.changed_entries``). An entry it changed
    that is present now and whose newest successful curate-log row about it or a folder
    above it, logged after ``orig``'s commit (in the same second: after the entry's own last
    commit in ``orig``; so the deletion was never committed: git wrote the file back), is a
    DELETE of it or of that folder, or a MERGE of it away. An entry deleted, committed and
    restored by a later commit is not touched (its deletion is older than ``orig``). The
    hooks (``pulled_back.written_back``) then re-apply the jobs (:func:`reapplied`: a MERGE
    source folded into its target, ``merged_away.folded``, and removed; a DELETE's entry
    removed; under the write lock and git's ``index.lock``, as every brv writer).

    Each as (its tree path, its repository path, the MERGE's target or "" for a DELETE).
    Reads only. The log's rule alone does not prove a rebase's deletion uncommitted: the
    person may commit one while the rebase is stopped and keep the entry after all, or
    restore an entry brv deleted; neither is in the stash, taken before the rebase, so with
    an autostash pending the hooks keep only the jobs it deletes
    (``KnowledgeRepo.autostash_deletions``, in ``pulled_back.written_back``). An entry put
    back by hand is kept once a brv command that reads the index has seen it (:func:`seen_back`).
    """
    from brv_vc.lifecycle.curate_log import removal_of
    from brv_vc.tree.statedb import STATE_DB

    present = [(rel, p) for status, p, _, _ in raw if status == "M"
               and (rel := repo.tree_path(p)) is not None and kind_of(rel) is Kind.ENTRY
               and (project.tree / rel).is_file()]
    if not present or not (project.state / STATE_DB).is_file():
        return []
    rows, stamp = _rows_since(project, repo, orig, {key for rel, _ in present for key in _above(rel)})
    # each path's (entry's or folder's) newest row and its rank: one pass over the log's rows
    newest: dict[str, tuple[int, LogRow]] = {}
    for i, r in enumerate(rows):
        for key in {r.path, *r.message.split()}:
            newest.setdefault(key, (i, r))
    jobs: list[tuple[str, str, str]] = []  # P, its repository path, the MERGE target ("")
    removed: dict[str, str] = {}  # P -> the removal's log time
    for rel, p in present:
        # the entry's own rows and its folders' (a folder DELETE): the newest decides, read
        # about the path it was found under (T's newest row may be "merged P into T": P's)
        found = min(((*hit, key) for key in _above(rel) if (hit := newest.get(key)) is not None),
                    key=lambda hit: hit[0], default=None)
        if found is None:
            continue
        _, row, key = found
        from brv_vc.lifecycle.curate_log import SUCCESS
        from brv_vc.services.vc.merged_away import REASON  # a row found: rarely

        # an undone MERGE (an interrupted dream's) is no deletion; nor is a merge's fold,
        # whose merge may since have been aborted
        if row.status != SUCCESS or row.reason == REASON:
            continue
        removal = removal_of(row.message, key)
        if removal is None:
            continue
        if row.time == stamp:  # the same second as orig: after the entry's own last commit?
            touched = git.commit_time(repo.workdir, orig, p)
            if touched is None or _iso(touched) >= row.time:
                continue
        jobs.append((rel, p, removal[1]))
        removed[rel] = row.time
    if jobs:  # put back by hand after brv removed it, and seen so by a brv command since
        back = seen_back(project, repo, orig, {rel: (p, removed[rel]) for rel, p, _ in jobs})
        jobs = [job for job in jobs if job[0] not in back]
    return jobs


def seen_back(project: Project, repo: KnowledgeRepo, orig: str,
              removed: dict[str, tuple[str, str]]) -> set[str]:
    """The entries brv removed that a person put back by hand and a brv command has seen since.

    ``removed``: each entry -> (its repository path, its removal's log time). Every removal
    brv makes drops the entry's index row (a dream's in a batch, before the next brv command
    reads the index), and every brv command that reads the index (search, query, an agent's
    read) brings it in step with the tree first. An entry counts as put back when its row
    was read from ``orig``'s bytes of it, what ``git restore`` writes (the index keeps each
    file's SHA-1), from a file written after the removal's second. Not put back: a row of
    the file the pull wrote (other bytes), read by a command that ran during the pull; a row
    of the removed file not yet dropped (written before the removal, or, a dream's edit,
    other bytes); a file written in the removal's own second (the log keeps whole seconds).
    Asked before the hook's own refresh, which would index every entry the pull wrote back.
    Read-only; no index, or an unreadable one: none (the log's rule alone decides).
    """
    import sqlite3

    from brv_vc.clock import parse_iso
    from brv_vc.digest import sha1
    from brv_vc.index.db import open_read_only
    from brv_vc.index.entries import indexed_as

    conn = open_read_only(project)
    if conn is None:
        return set()
    try:
        rows = indexed_as(conn, removed)
    except sqlite3.Error:
        return set()
    finally:
        conn.close()
    # written after the removal's second: the log's times are whole seconds
    rows = {rel: row for rel, row in rows.items()
            if row[0] >= (int(parse_iso(removed[rel][1]).timestamp()) + 1) * 1_000_000_000}
    if not rows:
        return set()
    kept = git.blobs_at(repo.workdir, orig, [removed[rel][0] for rel in rows])
    return {rel for rel, (_, digest) in rows.items()
            if (data := kept.get(removed[rel][0])) is not None and sha1(data).hexdigest() == digest}


def _above(rel: str) -> list[str]:
    """The keys of ``rel``'s rows in the log: each folder above it, top first, then ``rel``."""
    parts = rel.split("/")
    return ["/".join(parts[:n]) for n in range(1, len(parts) + 1)]


def _rows_since(project: Project, repo: KnowledgeRepo, orig: str,
                keys: Iterable[str]) -> tuple[list[LogRow], str]:
    """The curate log's outcome rows logged since ``orig``'s commit, newest first, and that time.

    One connection to the state database. The common pull first: when no row may remove one
    of ``keys`` (``curate_log.may_remove``: one indexed lookup a removal's form), none, with
    no git process (the commit's time) and no scan of the log. A log that cannot be read:
    none (the pull stands as git left it); a lookup that fails: the scan decides.
    """
    import sqlite3

    from brv_vc.lifecycle.curate_log import may_remove, outcomes_since
    from brv_vc.tree import statedb

    try:
        conn = statedb.open_state(project)
    except (BrvError, OSError):
        return [], ""
    try:
        try:
            maybe = may_remove(conn, keys)
        except (ValueError, sqlite3.Error):  # ValueError: a path not UTF-8
            maybe = True
        made = git.commit_time(repo.workdir, orig) if maybe else None
        stamp = _iso(made) if made is not None else ""
        return (outcomes_since(conn, stamp) if stamp else []), stamp
    except sqlite3.Error:
        return [], ""
    finally:
        conn.close()


def _iso(seconds: int) -> str:
    """A commit's time as the curate log writes its times (``clock.format_iso``)."""
    from datetime import UTC, datetime

    return format_iso(datetime.fromtimestamp(seconds, UTC))


def reapplied(project: Project, repo: KnowledgeRepo, orig: str, head: str,
               jobs: Sequence[tuple[str, str, str]], now: datetime) -> tuple[Fold, ...]:
    """Plans each job (reads only), records the plan, then carries it out (:func:`carry`)."""
    from brv_vc.services.derived import refresh
    from brv_vc.services.vc.merged_away import entry_of, holds
    from brv_vc.tree import intents, writelock
    from brv_vc.tree.fault import point
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
        done = carry(project, plan, stamp)
        intents.done(record)
    targets = [f.target for f in done if f.target]
    if targets:
        refresh(project, targets, now)
    return done


def _digest(data: bytes) -> str:
    """A DELETE step's record of the file the hook meant to remove (no entry text kept)."""
    from brv_vc.digest import sha256

    return sha256(data).hexdigest()


def recorded(step: dict[str, str], data: bytes) -> bool:
    """Whether ``data`` is the source as the hook recorded it (its text, or its hash)."""
    if step["target"]:
        return data == step["text"].encode("utf-8", "surrogateescape")
    return _digest(data) == step["hash"]


def _read(project: Project, rel: str) -> Entry | None:
    """The entry ``rel`` as the work tree holds it (None: missing or not an entry)."""
    from brv_vc.services.vc.merged_away import entry_of

    try:
        return entry_of((project.tree / rel).read_bytes(), rel)
    except OSError:
        return None


def carry(project: Project, plan: Sequence[dict[str, str]], stamp: str) -> tuple[Fold, ...]:
    """Carries out a recorded plan, each step only if not done yet, then logs it once.

    For each source in turn: its target gets the source folded in (the source as the work
    tree holds it, else as recorded) unless it holds it already, then the source is removed.
    A target that is gone or no entry keeps its source (nothing is lost): that fold is not
    done.
    """
    from brv_vc.format.entry import serialize_entry
    from brv_vc.services.curate import remove
    from brv_vc.services.vc.merged_away import Fold, entry_of, folded, holds, log_folds
    from brv_vc.tree.fault import point
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


def autostashed(repo: KnowledgeRepo, head: str,
                jobs: Sequence[tuple[str, str, str]]) -> tuple[str, ...]:
    """One line an entry brv deleted here that a pull with autostash brought back and left.

    ``jobs``: :func:`deleted_here`'s, those the autostash holds and :func:`reapplied` left
    (a MERGE's source: its target's fold is still in the stash). ``git pull --rebase
    --autostash`` (or ``rebase.autoStash``) stashed brv's uncommitted deletion, so the pull
    wrote the entry back with its incoming change; the stash's apply, which git runs after
    this hook, stops on it (a modify/delete) and keeps the stash. No hook runs after that
    apply (and before it no fold can be made), so the hook says what decides it: ``brv vc
    resolve`` for a MERGE's source, ``git rm`` for a DELETE's entry (``git commit -a`` keeps
    it back).
    """
    lines: list[str] = []
    for rel, path, target in jobs:
        show = f"git show {git.last_change(repo.workdir, head, path)[0][:12]}:{path}"
        fix = (f"run 'brv vc resolve' to fold its change into {target}, where brv merged it"
               if target else "'git rm' it to keep brv's deletion")
        lines.append(f"git brought back {rel}, which brv had removed here; git's autostash, "
                     f"applied next, stops on it: {fix} ('git commit -a' keeps it back; the "
                     f"incoming text: {show})")
    return tuple(lines)


def describe(repo: KnowledgeRepo, fold: Fold, *, stashed: bool = False) -> str:
    """One line on an entry :func:`reapplied` kept deleted, naming the incoming commit.

    ``stashed``: git's autostash, applied after the hook, holds the deletion and still stops
    on the entry (a modify/delete): ``git rm`` settles it.
    """
    path = repo.repo_path(fold.source)
    what = (f"its change is folded into {fold.target}, where it was merged" if fold.target
            else "it was deleted here")
    stop = (f"; git's autostash, applied next, still stops on it: 'git rm {path}' settles it"
            if stashed and not fold.target else "")
    return (f"git wrote back {fold.source}, which brv had removed here; removed again, "
            f"{what} (the incoming text: git show {fold.commit[:12]}:{path}){stop}")
