"""``brv vc resolve``: the conflicts plain git left in the context tree that brv settles.

Trigger: plain git (``git pull``, ``git merge``, ``git stash pop``, ``git rebase``,
``git cherry-pick``) stops on a modify/delete of an entry one side MERGEd away. git runs no
merge driver on a modify/delete (brv's driver has already merged what both sides changed in
one file), and a person who keeps the file brings the MERGE's source back and leaves its
change out of the target: the 8 x 50 team run lost a write that way after ``git stash pop``
(issue 35). Why: the same fold ``brv vc pull`` and ``brv vc merge`` apply
(:mod:`~brv_vc.services.vc.merged_away`), for whichever operation git stopped in. Outcome:
the entries folded, the conflicts left (true ones: a DELETE against a change, one section
changed two ways), and the step that finishes git's operation. Nothing is committed: git's
operation is the person's to finish.
"""

from __future__ import annotations

from datetime import datetime

from brv_vc.record import NamedTuple
from brv_vc.services.vc.merged_away import Fold
from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.vc.status import Change

# the operation git stopped in: the file its "theirs" is named in, and the step that ends it
_STOPPED = (
    ("merge", "MERGE_HEAD", "git commit (or brv vc merge --continue)"),
    ("rebase", "REBASE_HEAD", "git rebase --continue"),
    ("cherry-pick", "CHERRY_PICK_HEAD", "git cherry-pick --continue"),
)
_STASH = ("stash", "stash@{0}", "git stash drop (the stash is kept after a conflict)")


class ResolveResult(NamedTuple):
    """``brv vc resolve``: what git stopped in, the entries folded, the conflicts left."""

    operation: str  # merge | rebase | cherry-pick | stash | "" (no conflict)
    folded: tuple[Fold, ...]
    conflicts: tuple[Change, ...]  # left: true conflicts, for a person
    next_step: str


def resolve(project: Project, repo: KnowledgeRepo, now: datetime) -> ResolveResult:
    """Folds every modify/delete conflict whose deleting side MERGEd the entry away.

    The two sides are HEAD and the commit git is bringing in: ``MERGE_HEAD``,
    ``REBASE_HEAD``, ``CHERRY_PICK_HEAD``, or else the newest stash (a ``git stash pop`` or
    ``apply`` that stopped keeps it). Under the project's write lock, as every brv writer, and
    git's ``index.lock`` while folding (:func:`~brv_vc.services.vc.merged_away.fold_conflicts`).

    Raises:
        ConflictError: git held its ``index.lock`` past ``BRV_GIT_WAIT``; nothing was changed.
    """
    from brv_vc.services.vc.changes import status
    from brv_vc.services.vc.merged_away import elsewhere, fold_conflicts

    with writelock.hold(project):
        conflicts = status(repo).conflicts
        if not conflicts:
            return ResolveResult("", (), (), "")
        operation, theirs, step = _stopped(repo)
        ours = repo.head()
        folds = (fold_conflicts(project, repo, ours, theirs, conflicts, now)
                 if ours and theirs else ())
        left = status(repo).conflicts if folds else conflicts
        left = (*left, *elsewhere(repo))
    if folds:
        from brv_vc.services.derived import refresh

        refresh(project, [p for f in folds for p in (f.target, f.source)], now)
    if left:
        step = "resolve the rest by hand, 'git add' them, then " + step
    return ResolveResult(operation, folds, left, step)


def _stopped(repo: KnowledgeRepo) -> tuple[str, str | None, str]:
    """(operation, the commit it brings in, the step that finishes it).

    The newest stash only when a conflict's incoming side is the stash's file: a ``git
    revert``, ``am`` or an older stash's apply is another operation ("unknown": no fold,
    and no advice to drop a stash that is not the one applied).
    """
    git_dir = repo.git_dir()
    for operation, name, step in _STOPPED:
        if (git_dir / name).is_file():
            return operation, repo.rev(name), step
    operation, name, step = _STASH
    stash = repo.rev(name)
    if stash is not None and _applied(repo, stash):
        return operation, stash, step
    return "unknown", None, "finish what git stopped in ('git status' says what it is)"


def _applied(repo: KnowledgeRepo, stash: str) -> bool:
    """Whether every conflict is what applying ``stash`` onto HEAD leaves.

    A stash is applied against its own parent: each conflict's base (stage 1) is the file
    there, and its incoming side (stage 3) the stash's file, or nothing where the stash
    deleted it (a modify/delete the stash's side made).
    """
    from brv_vc.vc import git
    from brv_vc.vc.git import stage
    from brv_vc.vc.git.objects import blob_at

    parent = repo.rev(f"{stash}^1")
    stages = stage.unmerged_stages(repo)
    if parent is None or not stages:
        return False
    data = git.read_blobs(repo.workdir, [b for blobs in stages.values() for b in blobs.values()])
    for path, blobs in stages.items():
        for number, commit in ((1, parent), (3, stash)):
            held = blob_at(repo.workdir, commit, path)
            if (data.get(blobs[number]) if number in blobs else None) != held:
                return False
    return True
