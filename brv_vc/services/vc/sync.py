"""Sync use cases: ``fetch``, ``pull`` and ``merge`` (``push`` is in ``pushing``, branches in ``branches``).

All network and merge work goes through the real ``git`` binary, so the user's credential
helpers, ssh config, hooks and our merge driver behave exactly as with plain git. Nothing is
ever force-pushed. After a pull or merge the post-change step runs (archives from
trailers, then :func:`brv_vc.services.derived.refresh`).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from brv_vc import environment
from brv_vc.errors import ConflictError, GitError, NotFoundError
from brv_vc.record import NamedTuple
from brv_vc.scrub import mask_url
from brv_vc.services.vc.changes import status
from brv_vc.services.vc.hook_env import REFRESHING_ENV
from brv_vc.services.vc.remotes import chosen
from brv_vc.services.vc.settings_notice import settings_changes
from brv_vc.tree import intents, writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git import remote as git_remote
from brv_vc.vc.repo import KnowledgeRepo, translate

# Change: an annotation only, a pull without conflicts needs no vc.status (~0.5 ms of imports)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

    from brv_vc.services.vc.archive import AfterChange
    from brv_vc.vc.archived import RangeWalk
    from brv_vc.vc.status import Change


class FetchResult(NamedTuple):
    """``brv vc fetch``."""

    remote: str
    url: str
    ahead: int
    behind: int


def fetch(repo: KnowledgeRepo, remote: str | None = None) -> FetchResult:
    """Fetches a remote (default: the upstream's, else origin).

    Raises:
        GitError: no remote, or the remote cannot be reached.
    """
    name, _, remotes = chosen(repo, remote, repo.branch())
    git_remote.fetch(repo, name, what=f"fetch from '{name}'")
    return FetchResult(name, mask_url(remotes[name]), *git_remote.ahead_behind(repo))


class SyncResult(NamedTuple):
    """``brv vc pull`` / ``merge`` / ``checkout``: what moved and what is left to resolve."""

    action: str
    old: str | None
    new: str | None
    up_to_date: bool
    conflicts: tuple[Change, ...] = ()
    after: AfterChange | None = None
    source: str = ""
    switched: bool = True  # checkout: False when already on the branch (nothing done)
    notices: tuple[str, ...] = ()  # provider or review settings the merge changed


def _branch_ref(local: str) -> list[str]:
    """The ref a merge into branch ``local`` writes (none when HEAD is detached)."""
    return [f"refs/heads/{local}"] if local != "HEAD" else []


def refuse_merging(repo: KnowledgeRepo, git_dir: Path | None = None) -> None:
    """Raises ConflictError while a merge waits for --continue or --abort."""
    if repo.merging(git_dir):
        raise ConflictError("a merge is in progress",
                            hint="resolve it and run 'brv vc merge --continue', or "
                                 "'brv vc merge --abort'")


def _refuse_unrelated(repo: KnowledgeRepo, action: str, label: str, rerun: str) -> None:
    fresh = ("reset the branch to the remote's with git" if repo.in_project else
             "move the local tree away and 'brv vc clone URL'")
    raise GitError(
        f"cannot {action} {label}: the local and the remote histories are unrelated (no "
        "commit in common; e.g. both sides ran 'brv vc init' and committed separately); "
        "nothing was changed",
        hint=f"join them with '{rerun}' (files both sides added are merged), or "
             f"start from the remote: {fresh}",
    )


def _run_merge(repo: KnowledgeRepo, target: str, label: str, unrelated: bool,
               same: list[str]) -> git.Proc:
    """``git merge`` of ``target``, once the ``same`` untracked copies are removed."""
    for path in same:
        (repo.workdir / path).unlink()
    from brv_vc.vc.git import merge as git_merge

    # the post-change step runs in this process, after the merge: the post-merge hook skips it
    return git_merge.merge(repo, target, f"Merge {label}", unrelated=unrelated,
                           env=environment.child({REFRESHING_ENV: "post-merge"}))


def _merge(project: Project, repo: KnowledgeRepo, target: str, label: str, action: str,
           now: datetime, allow_unrelated: bool = False, rerun: str = "",
           old: str | None = None, where: tuple[Path, Path, str] | None = None) -> SyncResult:
    """Merges ``target`` into HEAD (``old``: HEAD's commit, None on an unborn branch).

    ``where``: the git dir, the common dir and the branch (``repo.whereabouts``), for the new
    HEAD read from the ref git just wrote (``git.loose_head``) rather than asked of git.
    The caller holds the project's write lock (:func:`pull`, :func:`merge`).
    """
    from brv_vc.services.vc.archive import after_change
    from brv_vc.services.vc.recovery import begin_pull

    relation, walk = _relation(repo, old, target, where)
    if relation in ("same", "behind"):
        return SyncResult(action, old, old, True, source=label)
    unrelated = relation == "unrelated"
    if unrelated and not allow_unrelated:
        _refuse_unrelated(repo, action, label, rerun)
    # what arrives, with modes and blobs: for a fast-forward also the change the post-change
    # step reads (old..target), so it is not diffed again after the merge
    raw = git.changed_entries(repo.workdir, old, target) if unrelated and old else (
        git.changed_entries(repo.workdir, f"{old}...{target}", None) if old else None)
    arriving = ([p for _, p, _, _ in raw] if raw is not None
                else git.tree_paths(repo.workdir, target))
    # a fast-forward (or a first pull) rewrites every arriving path, and git's merge refuses,
    # before it changes anything, when one has local changes: its check is the one needed,
    # and the paths are named only when it refused. A true merge may leave an arriving path
    # as it is (both sides changed it alike): asked first, so 'vc recover' never resets one.
    git_checks = old is None or relation == "forward"
    same = [] if git_checks else _refuse_clash(repo, target, arriving, action, staged=True)
    # git's check passes an entry deleted here that the incoming commits change (it writes
    # it back): one lstat an arriving entry; incoming's refusal imported only when one is
    gone = [p for st, p, _, _ in raw or () if st in ("M", "T") and repo.tree_path(p) is not None
            and not os.path.lexists(repo.workdir / p)] if git_checks else []
    if gone:
        from brv_vc.services.vc.incoming import refuse_deleted

        refuse_deleted(repo, gone, action)
    # intent first: a kill from here on is recognised and undone or finished (vc recover)
    intent = begin_pull(project, old, target, arriving)
    try:
        proc = _run_merge(repo, target, label, unrelated, same)
        if proc.returncode != 0 and git_checks:
            same = _refuse_clash(repo, target, arriving, action)
            if same:  # identical untracked copies git would not overwrite: dropped, merged
                proc = _run_merge(repo, target, label, unrelated, same)
        if proc.returncode != 0:
            st = status(repo)
            if not st.conflicts:
                raise translate(["merge", label], proc, what=f"{action} of {label}")
            from brv_vc.services.vc.merged_away import settle

            left = settle(project, repo, old, target, st.conflicts, now)
            if left:
                return SyncResult(action, old, old, False, left, source=label)
            relation = "merged"  # every conflict folded (merged_away): committed as a clean merge
        # git wrote the branch's ref file just now (a merge moves HEAD's branch, as a commit)
        new = (git.loose_head(*where) if where else None) or repo.head()
        forward = new == target and relation == "forward"
        known = raw if raw is not None and forward else None
        paths = None if known is None else {p for _, p, _, _ in known}
        # abstracts queued, as 'brv vc commit' does: the pull costs what git's does (DESIGN.md)
        after = after_change(project, repo, old, new, now, manifest=False, defer=True, raw=known,
                             walk=walk if forward else None)
        return SyncResult(action, old, new, False, (), after, label,
                          notices=(*settings_changes(project, repo, old, new, paths),
                                   *_pull_notices(project, repo, old, new, paths)))
    finally:
        intents.done(intent)


def _pull_notices(project: Project, repo: KnowledgeRepo, old: str | None, new: str | None,
                  paths: Collection[str] | None) -> tuple[str, ...]:
    """``code_notes.pull_notices``: its module is imported only in-project (standalone: none)."""
    if not repo.in_project:
        return ()
    from brv_vc.services.vc.code_notes import pull_notices

    return pull_notices(project, repo, old, new, paths)


def _refuse_clash(repo: KnowledgeRepo, target: str, arriving: list[str], action: str,
                  *, staged: bool = False) -> list[str]:
    """``incoming.refuse_clash``, its module imported only when asked (a fast-forward: not).

    ``staged``: a true merge, refused first while changes are staged (``refuse_staged``).
    """
    from brv_vc.services.vc.incoming import refuse_clash, refuse_staged

    if staged:
        refuse_staged(repo, action)
    return refuse_clash(repo, target, arriving, action)


def _relation(repo: KnowledgeRepo, old: str | None, target: str,
              where: tuple[Path, Path, str] | None) -> tuple[str, RangeWalk | None]:
    """How ``target`` stands to HEAD's ``old``, and the walk of ``old..target`` when read.

    "unborn" (no ``old``), "same", "behind" (``target`` is in HEAD's history: up to date),
    "forward" (a fast-forward), "unrelated" (no commit in common) or "diverged". One ``git
    log`` (``archived.range_walk``) that the post-change step reads again for a fast-forward;
    a shallow clone, or a walk git refused, asks ``git merge-base`` as before.
    """
    from brv_vc.vc.archived import range_walk  # the post-change step's module: not fetch's

    if not old or old == target:
        return ("same" if old else "unborn"), None
    shallow = where is None or (where[1] / "shallow").exists()
    walk = None if shallow else range_walk(repo, old, target)
    if walk is not None:
        if not walk.commits:
            return "behind", walk
        return ("forward" if old in walk.borders else "diverged" if walk.borders
                else "unrelated"), walk
    from brv_vc.vc.git.merge import base as merge_base

    base = merge_base(repo, old, target)
    return ("behind" if base == target else "forward" if base == old
            else "diverged" if base else "unrelated"), None


def pull(project: Project, repo: KnowledgeRepo, now: datetime, remote: str | None = None,
         branch: str | None = None, *, allow_unrelated: bool = False) -> SyncResult:
    """Fetches and merges the upstream (or ``remote branch``) into the current branch.

    ``allow_unrelated`` joins histories with no common commit (refused otherwise).

    Under the project's write lock (tree/writelock.py), from the look for an interrupted
    git to the end of the post-change step: no brv writer reads an entry that git then
    merges into, nor renames its copy over git's result; and the look for a killed git's
    locks never finds a writer's ``index.lock`` (vc/git_index_lock.py). git's hooks take no
    write lock inside the merge (the merge driver and the post-change step write no
    knowledge): none waits for this one.

    Raises:
        GitError: no remote, no upstream, unreachable remote, unrelated histories.
        ConflictError: a merge in progress, or local changes the pull would overwrite.
    """
    with writelock.hold(project):
        return _pull(project, repo, now, remote, branch, allow_unrelated)


def _pull(project: Project, repo: KnowledgeRepo, now: datetime, remote: str | None,
          branch: str | None, allow_unrelated: bool) -> SyncResult:
    # imported here: push, fetch and the branch commands never need the post-change step
    from brv_vc.services.vc.recovery import catch_up, refuse_interrupted

    git_dir, common, old, local = repo.whereabouts()
    dirs = (git_dir, common)
    name, upstream, _ = chosen(repo, remote, local)  # the remote the fetch writes under
    fetched = branch or (upstream[1] if upstream and name == upstream[0] else None)
    # the refs this pull writes: its branch, and the remote-tracking ref the fetch updates
    refs = _branch_ref(local)
    if fetched:
        refs.append(f"refs/remotes/{name}/{fetched}")
    refuse_interrupted(project, repo, now, dirs=dirs, refs=refs)
    refuse_merging(repo, dirs[0])
    catch_up(project, repo, now, old)
    named = branch is not None  # a ref the user names may be a tag; the upstream is a branch
    if branch is None:
        if upstream is None or (remote and remote != upstream[0]):
            raise GitError(
                f"branch '{local}' has no upstream to pull from",
                hint=f"name it: brv vc pull {name} main, or set it with "
                     f"'brv vc branch --set-upstream-to {name}/main' ('push -u' sets it too)",
            )
        branch = upstream[1]
    git_remote.fetch(repo, name, branch, what=f"pull from '{name}'")
    target = (None if named else _fetched(git_dir)) or repo.rev("FETCH_HEAD")
    if target is None:  # pragma: no cover - git fetch succeeded, so FETCH_HEAD exists
        raise GitError(f"fetching {name}/{branch} gave no commit")
    return _merge(project, repo, target, f"branch '{branch}' of {name}", "pull", now,
                  allow_unrelated, f"brv vc pull --allow-unrelated-histories {name} {branch}",
                  old, (git_dir, common, local))


def _fetched(git_dir: Path) -> str | None:
    """The commit a one-branch ``git fetch`` wrote to FETCH_HEAD (None: not readable as one).

    Its first line is ``<id> TAB TAB branch 'main' of <url>``: read, not asked of git.
    """
    try:
        with open(git_dir / "FETCH_HEAD", encoding="utf-8") as handle:
            sha, _, rest = handle.readline().partition("\t")
    except (OSError, UnicodeDecodeError):
        return None
    return sha if git.object_id(sha) and not rest.startswith("not-for-merge") else None


def merge(project: Project, repo: KnowledgeRepo, now: datetime, ref: str, *,
          allow_unrelated: bool = False) -> SyncResult:
    """Merges a branch or ref into the current branch.

    ``allow_unrelated`` joins histories with no common commit (refused otherwise).

    Raises:
        NotFoundError: an unknown ref.
        GitError: unrelated histories without ``allow_unrelated``.
        ConflictError: a merge in progress or local changes in the way.
    """
    with writelock.hold(project):  # as pull
        return _merge_ref(project, repo, now, ref, allow_unrelated)


def _merge_ref(project: Project, repo: KnowledgeRepo, now: datetime, ref: str,
               allow_unrelated: bool) -> SyncResult:
    # imported here: push, fetch and the branch commands never need the post-change step
    from brv_vc.services.vc.recovery import catch_up, refuse_interrupted

    git_dir, common, old, local = repo.whereabouts()
    refuse_interrupted(project, repo, now, dirs=(git_dir, common), refs=_branch_ref(local))
    refuse_merging(repo, git_dir)
    catch_up(project, repo, now, old)
    target = repo.rev(ref)
    if target is None:
        raise NotFoundError(f"unknown branch or ref '{ref}'",
                            hint="list branches with 'brv vc branch -a'")
    return _merge(project, repo, target, f"'{ref}'", "merge", now, allow_unrelated,
                  f"brv vc merge --allow-unrelated-histories {ref}", old, (git_dir, common, local))


def merge_abort(repo: KnowledgeRepo, project: Project | None = None,
                now: datetime | None = None) -> SyncResult:
    """Restores the state before the merge (``git merge --abort``).

    Raises:
        ConflictError: no merge is in progress, or git was interrupted (names vc recover).
    """
    from brv_vc.services.vc.recovery import refuse_interrupted

    if project is None or now is None:
        return _abort(repo)
    with writelock.hold(project):  # git rewrites the work tree: no brv writer meanwhile
        refuse_interrupted(project, repo, now, refs=_branch_ref(repo.branch()))
        return _abort(repo)


def _abort(repo: KnowledgeRepo) -> SyncResult:
    from brv_vc.services.vc.recovery import RECOVER_HINT, committed_merge

    merged = committed_merge(repo)
    if merged is not None:  # 'git merge --abort' would keep HEAD on the merge commit
        raise ConflictError(
            f"there is no merge to abort: git already made the merge commit ({merged[:7]}) "
            "and was interrupted before removing its merge state",
            hint=RECOVER_HINT)
    if not repo.merging():
        raise ConflictError("there is no merge to abort", hint="see 'brv vc status'")
    head = repo.head()
    from brv_vc.vc.git.merge import abort

    abort(repo)
    return SyncResult("merge --abort", head, repo.head(), False)


def merge_continue(project: Project, repo: KnowledgeRepo, now: datetime) -> SyncResult:
    """Commits the merge once every conflict is resolved and staged.

    Raises:
        ConflictError: no merge in progress, unmerged paths or conflict markers remain.
    """
    from brv_vc.services.vc.recovery import refuse_interrupted

    with writelock.hold(project):  # as pull: no brv writer while git reads the index
        refuse_interrupted(project, repo, now, refs=_branch_ref(repo.branch()))
        return _continue(project, repo, now)


def _continue(project: Project, repo: KnowledgeRepo, now: datetime) -> SyncResult:
    from brv_vc.services.vc.archive import after_change
    from brv_vc.services.vc.committing import refuse_unmerged
    from brv_vc.services.vc.markers import marker_files_in, refuse_marker_files

    if not repo.merging():
        raise ConflictError("there is no merge to continue", hint="see 'brv vc status'")
    st = status(repo)
    refuse_unmerged(st.conflicts, "finish the merge")
    # the merge's result against HEAD: the only files this commit can bring markers in with
    refuse_marker_files(marker_files_in(repo, git.staged_entries(repo.workdir, None,
                                                                 repo.prefix or None)),
                        "finish the merge")
    old = repo.head()
    from brv_vc.vc.git.commit import conclude_merge

    conclude_merge(repo)
    new = repo.head()
    return SyncResult("merge --continue", old, new, False, (),
                      after_change(project, repo, old, new, now, manifest=False, defer=True),
                      notices=settings_changes(project, repo, old, new))
