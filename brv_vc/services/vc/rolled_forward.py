"""A post-merge hook killed mid-fold (services/vc/written_back.py): its record rolled forward.

Trigger: an intent record ``.brv/state/pending/reapply-<pid>.json`` left by a kill, found by
the next process that takes the write lock (every command at its start, from
services/recovery.py) or by the next post-merge hook (:func:`finish_killed`). Why: the hook
had planned every entry and may have done some; a rollback would lose the incoming text of a
MERGE source already removed. Outcome: the record's shape is checked whole first
(:func:`checked`: a damaged record is removed, nothing done by it); then, under git's
``index.lock`` as the hook held it, each step is taken only if its source is still as the
hook saw it (the recorded text or hash) or as a later pull wrote it (HEAD's copy, HEAD after
the recorded pull's), each only if not done yet (``written_back.carry``), and each entry is
named: finished, or left as it is and why. An error of the steps keeps the record for the
next command.
"""

from __future__ import annotations

from brv_vc.errors import BrvError
from brv_vc.services.vc.written_back import KIND, carry, describe, recorded
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from pathlib import Path
    from typing import Any


def checked(data: dict[str, Any]) -> tuple[str, str, list[dict[str, str]]]:
    """A left record's pull HEAD, fold time and steps, its whole shape checked before any step.

    Raises:
        ValueError: not such a record (damaged, or another version's): nothing may be done
            by it, and the pull stands as plain git left it (nothing is lost).
    """
    from brv_vc.clock import parse_iso
    from brv_vc.tree.layout import clean_relpath

    head, stamp, folds = data.get("head"), data.get("stamp"), data.get("folds")
    if not (isinstance(head, str) and head and isinstance(stamp, str)
            and isinstance(folds, list)):
        raise ValueError("no pull HEAD, fold time or list of steps")
    parse_iso(stamp)  # the targets' updatedAt and the log rows' time: a ValueError if not
    steps: list[dict[str, str]] = []
    for step in folds:
        keys = ("source", "target", "commit",
                "text" if isinstance(step, dict) and step.get("target") else "hash")
        if not isinstance(step, dict) or not all(isinstance(step.get(k), str) for k in keys):
            raise ValueError(f"a step lacks a text for one of {', '.join(keys)}")
        for rel in filter(None, (step["source"], step["target"])):
            try:
                if clean_relpath(rel) != rel or kind_of(rel) is not Kind.ENTRY:
                    raise ValueError(f"{rel!r} is not an entry of the tree")
            except BrvError as exc:
                raise ValueError(str(exc)) from None
        if step["source"] == step["target"]:
            raise ValueError(f"{step['source']} folded into itself")
        steps.append({k: step[k] for k in keys})
    return head, stamp, steps


def finish_reapply(project: Project, record: tuple[str, str, list[dict[str, str]]]
                   ) -> tuple[list[str], list[str]]:
    """Rolls forward a killed hook's record (:func:`checked`; the caller holds the write lock).

    A step acts on its source only if the source is as the hook recorded it, or as a later
    pull wrote it back (HEAD's copy, HEAD being the recorded pull's or after it); a source
    changed since (by hand, another branch checked out) is left as it is, and said. A source
    already gone is finished (its target folded) only on the recorded pull's line.

    Returns:
        One line an entry (finished, as :func:`describe` says it, or left and why), and the
        tree paths written or removed (for the derived refresh).

    Raises:
        OSError, BrvError: a file could not be written, git's lock not taken: the record
            stays (the next command retries).
    """
    from brv_vc.vc import git_index_lock

    head, stamp, plan = record
    # git's index.lock too, as the hook took it: no git rewrites a source between the look
    # and the removal (a hook of a later pull: that git holds no lock while its hook runs)
    with git_index_lock.holding(project):
        return _finish(project, [dict(step) for step in plan], head, stamp)


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
        if again is not None and recorded(step, again):
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
    done = carry(project, steps, stamp)
    lines = [f"finished the re-application that a killed post-merge hook left: "
             f"{describe(repo, fold)}" for fold in done]
    finished = {fold.source for fold in done}  # carry keeps a source whose target is unread
    left += [f"left {step['source']} as it is: {step['target']}, where a killed post-merge "
             f"hook meant to fold it, is gone or no entry" for step in steps
             if step["source"] not in finished]
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
            said, problems, written = settle_reapply(project, path, data)
            lines += [*said, *problems]
            touched += written
    if touched:
        refresh(project, touched, now)
    return tuple(lines)


def settle_reapply(project: Project, path: Path, data: dict[str, Any]
                   ) -> tuple[list[str], list[str], list[str]]:
    """Settles one left record ``path`` (the caller holds the write lock).

    Its shape is checked first, alone: a damaged record is removed, nothing done by it. Then
    its steps (:func:`finish_reapply`); an error there keeps the record, for the next
    command to retry, and is said.

    Returns:
        The lines on the entries, the problems, and the tree paths written or removed.
    """
    from brv_vc.tree import intents

    try:
        record = checked(data)
    except ValueError as exc:  # not such a record: nothing may be done by it
        intents.done(path)
        return [], [f"a damaged record {path.name} was removed, nothing done by it ({exc}); "
                    "the pull stands as plain git left it"], []
    try:
        lines, written = finish_reapply(project, record)
    except (BrvError, OSError, ValueError, KeyError, TypeError) as exc:
        return [], [f"what a killed post-merge hook left could not be finished, kept to "
                    f"retry: {exc}"], []
    intents.done(path)
    return lines, [], written
