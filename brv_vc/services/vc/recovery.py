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

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from brv_vc.errors import ConflictError
from brv_vc.record import NamedTuple
from brv_vc.services.vc.archive import AfterChange, after_change, processed_head, record_head
from brv_vc.tree import intents, writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git import stale_locks
from brv_vc.vc.git.stale_locks import GitLock
from brv_vc.vc.repo import KnowledgeRepo

RECOVER_HINT = ("run 'brv vc recover': it removes stale git locks and finishes or undoes the "
                "interrupted merge (HEAD, your commits and other changes are kept)")
# git's merge state, removed once the merge commit exists (what 'git commit' does last)
_MERGE_STATE = ("MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE")


class RecoverResult(NamedTuple):
    """``brv vc recover``: what was found and done."""

    lock_removed: str = ""  # the first stale lock removed (all of them: locks_removed)
    merge: str = ""  # finished | aborted | in progress | "" (no interrupted merge)
    after: AfterChange | None = None
    notes: tuple[str, ...] = ()
    locks_removed: tuple[str, ...] = ()
    temps_removed: tuple[str, ...] = ()


_ASK = "ask git"  # catch_up's head not given: rev-parse it


def catch_up(project: Project, repo: KnowledgeRepo, now: datetime,
             head: str | None = _ASK) -> AfterChange | None:
    """Runs the post-change step for a HEAD not yet processed (a pull killed before it).

    The first run in a project only records HEAD. The step is idempotent. ``head``: HEAD's
    commit when the caller knows it (None: no commit yet).
    """
    if head is _ASK:
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


Dirs = tuple[Path, Path]  # KnowledgeRepo.git_dirs(): the git folder and the common one


def _locks(repo: KnowledgeRepo, *, settle: bool = False, dirs: Dirs | None = None,
           refs: Sequence[str] | None = None) -> tuple[GitLock, ...]:
    git_dir, common = dirs or repo.git_dirs()
    if settle:  # recover: every lock, to remove them all
        return stale_locks.settled(repo.workdir, git_dir, common)
    return stale_locks.git_locks(repo.workdir, git_dir, common, refs=refs)


def _refuse_live(locks: tuple[GitLock, ...]) -> None:
    owners = sorted({pid for lock in locks for pid in lock.owners})
    raise ConflictError(
        f"another git process (pid {', '.join(map(str, owners))}) is working in this "
        f"repository and holds {', '.join(str(lock.path) for lock in locks)}",
        hint="wait for it to finish, then run the command again",
    )


def committed_merge(repo: KnowledgeRepo, git_dir: Path | None = None) -> str | None:
    """HEAD when git made the merge commit but was killed before removing ``MERGE_HEAD``.

    Then every commit ``MERGE_HEAD`` names is already in HEAD: the merge is done, only git's
    merge state is left (``merge --abort`` would keep HEAD on the merge commit).
    """
    try:
        merged = ((git_dir or repo.git_dir()) / "MERGE_HEAD").read_text(
            encoding="utf-8").split()
    except OSError:
        return None
    head = repo.head()
    if not merged or head is None or head in merged:
        return None
    for sha in merged:
        if not git.is_ancestor(repo.workdir, sha, head):
            return None
    return head


def refuse_interrupted(project: Project, repo: KnowledgeRepo, now: datetime, *,
                       dirs: Dirs | None = None, refs: Sequence[str] | None = None) -> None:
    """Raises ConflictError naming ``brv vc recover`` after an interrupted git command.

    An orphaned pull whose merge was committed is finished here, silently (catch-up).
    ``dirs``: ``repo.git_dirs()`` when the caller has them. ``refs``: the refs the command
    writes (its branch, the remote-tracking ref it fetches): only their locks count, beside
    the repository-wide ones (index, HEAD, packed-refs...); None: every ref's.

    Raises:
        ConflictError: a stale or live git lock, a merge committed but not cleaned up, or a
            pull cut short mid-merge.
    """
    dirs = dirs or repo.git_dirs()
    locks = _locks(repo, dirs=dirs, refs=refs)
    if locks:
        live = tuple(lock for lock in locks if not lock.stale)
        if live:
            _refuse_live(live)
        shown = ", ".join(str(lock.path) for lock in locks)
        raise ConflictError(
            f"an earlier git command in this repository was interrupted: {shown} was "
            f"left by a git process that no longer runs ({max(k.age for k in locks):.0f} s old)",
            hint=RECOVER_HINT,
        )
    merged = committed_merge(repo, dirs[0])
    if merged is not None:
        raise ConflictError(
            f"an earlier merge was interrupted just after git made its merge commit "
            f"({merged[:7]}): git's merge state (MERGE_HEAD) was left behind",
            hint=RECOVER_HINT,
        )
    pulls = intents.orphans(project, "pull")
    if not pulls:
        return
    head = repo.head()
    if all(data.get("old") != head for _, data in pulls) and not repo.merging(dirs[0]):
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
    from brv_vc.vc.git import stage

    # None: the first pull into an empty repository
    present = set(git.tree_paths(repo.workdir, old)) if old is not None else set()
    stage.restore_index(repo, old, paths)
    back = [p for p in paths if p in present]
    if back and old is not None:
        stage.checkout_paths(repo, old, back, what="restore the files of the interrupted merge")
    for path in paths:
        if path not in present:
            (repo.workdir / path).unlink(missing_ok=True)


def _remove_stale(repo: KnowledgeRepo) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Removes stale git locks and git's merge-driver temp files; returns both lists.

    A git seen working in the repository without a lock (one started since the locks were
    looked at; its temp files may be in use) is waited for as a lock's owner is: recover
    never reports success with a stale lock left in place.

    Raises:
        ConflictError: a live git process works in the repository (nothing is removed).
    """
    dirs = repo.git_dirs()
    locks = _locks(repo, settle=True, dirs=dirs)
    live = tuple(lock for lock in locks if not lock.stale)
    if live:
        _refuse_live(live)
    from brv_vc.vc.git.stage import in_index

    temps = [p for p in stale_locks.merge_temps(repo.workdir) if not in_index(repo, p.name)]
    if not locks and not temps:
        return (), ()
    running = stale_locks.wait_for_git((repo.workdir, *dirs))
    if running:
        left = [str(lock.path) for lock in locks] + [str(p) for p in temps]
        raise ConflictError(
            f"another git process (pid {', '.join(map(str, running))}) is working in this "
            f"repository: nothing was removed ({', '.join(left)} left in place)",
            hint=f"wait for it to finish (if it hangs: kill {running[0]}), then run "
                 "'brv vc recover' again",
        )
    for lock in locks:
        lock.path.unlink(missing_ok=True)
    for path in temps:
        path.unlink(missing_ok=True)
    return tuple(str(lock.path) for lock in locks), tuple(p.name for p in temps)


def _drop_merge_state(repo: KnowledgeRepo) -> None:
    """Removes git's merge state files (one ``rev-parse`` for the git folder, not one a file)."""
    folder = repo.git_dir()
    for name in _MERGE_STATE:
        (folder / name).unlink(missing_ok=True)


def recover(project: Project, repo: KnowledgeRepo, now: datetime) -> RecoverResult:
    """Removes stale git locks, then finishes or undoes an interrupted pull or merge.

    HEAD never moves back: a merge commit git made is kept (its leftover merge state is
    removed); a merge not yet committed is undone on the paths it brought in.

    Under the project's write lock: no brv writer holds git's ``index.lock`` meanwhile
    (vc/git_index_lock.py), so every lock found with no git running is a killed git's.

    Raises:
        ConflictError: a live git process holds a lock (nothing is changed).
    """
    with writelock.hold(project):
        return _recover(project, repo, now)


def _recover(project: Project, repo: KnowledgeRepo, now: datetime) -> RecoverResult:
    notes: list[str] = []
    removed, temps = _remove_stale(repo)
    merge = ""
    committed = committed_merge(repo)
    if committed is not None:
        _drop_merge_state(repo)
        merge = "finished"
        notes.append(f"git had made the merge commit {committed[:7]}; its leftover merge "
                     "state (MERGE_HEAD) was removed")
    head = repo.head()
    for path, data in intents.orphans(project, "pull"):
        old, paths = data.get("old"), data.get("paths") or []
        if head == old:
            if repo.merging():
                from brv_vc.vc.git.merge import abort as abort_merge

                abort_merge(repo, check=False)
            _restore(repo, old, [p for p in paths if isinstance(p, str)])
            _drop_merge_state(repo)  # HEAD is the old commit: no merge of it is left
            merge = "aborted"
            notes.append(f"HEAD stays at {(old or '')[:7]}; run 'brv vc pull' again")
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
    return RecoverResult(removed[0] if removed else "", merge, after, tuple(notes), removed,
                         temps)


def begin_pull(project: Project, old: str | None, target: str, paths: list[str]) -> Path:
    """Writes the intent record of a merge about to start (see the module docstring)."""
    return intents.begin(project, "pull", {"old": old, "target": target, "paths": paths})
