"""After a pull or merge was killed: recognise it, name the one command, and recover.

A killed ``git merge`` leaves ``.git/index.lock`` (every later git write then fails), and a
working tree half updated; a kill after the merge but before the post-change step leaves
archives not rebuilt. So:
- ``pull`` writes an intent record (old HEAD, target, incoming paths) before it merges;
- :func:`refuse_interrupted` (pull, merge, ``--continue``, ``--abort``) raises one message
  naming ``brv vc recover`` when the lock is stale or a pull's record is orphaned;
- :func:`recover` removes a stale lock (never a live git's), then finishes the step (HEAD
  moved: the merge was committed) or undoes it (the incoming paths go back to the old HEAD);
- :func:`catch_up` runs the post-change step for a HEAD this project has not processed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from brv_vc.errors import ConflictError
from brv_vc.services.vc.archive import AfterChange, after_change, processed_head, record_head
from brv_vc.tree import intents
from brv_vc.tree.project import Project
from brv_vc.vc.git_lock import IndexLock, index_lock
from brv_vc.vc.repo import KnowledgeRepo

RECOVER_HINT = ("run 'brv vc recover': it removes the stale lock and finishes or undoes the "
                "interrupted merge (your commits and other changes are kept)")


@dataclass(frozen=True)
class RecoverResult:
    """``brv vc recover``: what was found and done."""

    lock_removed: str = ""  # the stale lock's path, when one was removed
    merge: str = ""  # finished | aborted | in progress | "" (no interrupted merge)
    after: AfterChange | None = None
    notes: tuple[str, ...] = ()


def catch_up(project: Project, repo: KnowledgeRepo, now: datetime) -> AfterChange | None:
    """Runs the post-change step for a HEAD not yet processed (a pull killed before it).

    The first run in a project only records HEAD. The step is idempotent.
    """
    head = repo.head()
    if head is None:
        return None
    seen = processed_head(project)
    if seen is None:
        record_head(project, head)
        return None
    if seen == head:
        return None
    return after_change(project, repo, repo.rev(seen), head, now)


def _lock(repo: KnowledgeRepo) -> IndexLock | None:
    return index_lock(repo.workdir, repo.git_dir())


def _refuse_live(lock: IndexLock) -> None:
    raise ConflictError(
        f"another git process (pid {', '.join(map(str, lock.owners))}) is working in this "
        f"repository and holds {lock.path}",
        hint="wait for it to finish, then run the command again",
    )


def refuse_interrupted(project: Project, repo: KnowledgeRepo, now: datetime) -> None:
    """Raises ConflictError naming ``brv vc recover`` after an interrupted git command.

    An orphaned pull whose merge was committed is finished here, silently (catch-up).

    Raises:
        ConflictError: a stale or live ``index.lock``, or a pull cut short mid-merge.
    """
    lock = _lock(repo)
    if lock is not None:
        if not lock.stale:
            _refuse_live(lock)
        raise ConflictError(
            f"an earlier git command in this repository was interrupted: {lock.path} was "
            f"left by a git process that no longer runs ({lock.age:.0f} s old)",
            hint=RECOVER_HINT,
        )
    pulls = intents.orphans(project, "pull")
    if not pulls:
        return
    head = repo.head()
    if all(data.get("old") != head for _, data in pulls):
        catch_up(project, repo, now)
        for path, _ in pulls:
            intents.done(path)
        return
    raise ConflictError(
        "an earlier 'brv vc pull' was interrupted in the middle of its merge",
        hint=RECOVER_HINT,
    )


def _restore(repo: KnowledgeRepo, old: str | None, paths: list[str]) -> None:
    """Puts ``paths`` (repository-relative) back as they are at ``old``, index and files.

    Only incoming paths are touched; pull refused to start when any of them had local
    changes, so nothing of the user's is lost.
    """
    if not paths:
        return
    spec = "\0".join(paths) + "\0"
    if old is None:  # the first pull into an empty repository
        present: set[str] = set()
        repo.git("rm", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-",
                 "--pathspec-file-nul", input=spec, check=False)
    else:
        listing = repo.git("ls-tree", "-r", "-z", "--name-only", "--full-tree", old).stdout
        present = set(listing.split("\0"))
        repo.git("reset", "-q", old, "--pathspec-from-file=-", "--pathspec-file-nul",
                 input=spec, check=False)
    back = [p for p in paths if p in present]
    if back and old is not None:
        repo.git("checkout", old, "--pathspec-from-file=-", "--pathspec-file-nul",
                 input="\0".join(back) + "\0", what="restore the files of the interrupted merge")
    for path in paths:
        if path not in present:
            (repo.workdir / path).unlink(missing_ok=True)


def recover(project: Project, repo: KnowledgeRepo, now: datetime) -> RecoverResult:
    """Removes a stale index lock, then finishes or undoes an interrupted pull or merge.

    Raises:
        ConflictError: a live git process holds the lock (nothing is changed).
    """
    notes: list[str] = []
    lock = _lock(repo)
    removed = ""
    if lock is not None:
        if not lock.stale:
            _refuse_live(lock)
        lock.path.unlink(missing_ok=True)
        removed = str(lock.path)
    merge = ""
    head = repo.head()
    for path, data in intents.orphans(project, "pull"):
        old, paths = data.get("old"), data.get("paths") or []
        if head == old:
            if repo.merging():
                repo.git("merge", "--abort", check=False)
            _restore(repo, old, [p for p in paths if isinstance(p, str)])
            merge = "aborted"
            notes.append("the interrupted pull was undone; run 'brv vc pull' again")
        else:
            merge = merge or "finished"
        intents.done(path)
    if not merge and repo.merging():
        merge = "in progress"
        notes.append("a merge waits: resolve it and run 'brv vc merge --continue', or "
                     "'brv vc merge --abort'")
    after = catch_up(project, repo, now)
    if after is not None and not merge:
        merge = "finished"
    return RecoverResult(removed, merge, after, tuple(notes))


def begin_pull(project: Project, old: str | None, target: str, paths: list[str]) -> Path:
    """Writes the intent record of a merge about to start (see the module docstring)."""
    return intents.begin(project, "pull", {"old": old, "target": target, "paths": paths})
