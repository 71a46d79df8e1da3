"""The local changes an incoming merge would overwrite: found, named, or (identical) dropped.

``brv vc pull`` and ``merge`` (``sync``) ask only about the incoming paths, and only when
git's own check does not cover them (a true merge) or after git refused (a fast-forward).
A true merge is also refused while changes are staged (:func:`refuse_staged`), and a
fast-forward that would write back an entry deleted here (:func:`refuse_deleted`).
"""

from __future__ import annotations

from brv_vc.errors import ConflictError
from brv_vc.vc import git
from brv_vc.vc.git import objects
from brv_vc.vc.repo import KnowledgeRepo

_DIRTY_SPEC_LIMIT = 1000  # more incoming paths than this: one status of the whole work tree


def _status_specs(repo: KnowledgeRepo, paths: list[str]) -> list[str]:
    """The paths as few literal pathspecs: their knowledge folders, other files one by one.

    git matches every index entry against every pathspec (100 file pathspecs cost ~35 ms of
    CPU at 25,000 entries, ~4x that at 100,000; the 2-3 folders of the same 100 entries ~3
    ms). A folder of the tree holds a bounded subtree; a code folder (in-project mode) may
    hold a large one, whose untracked files git would walk, so code files stay files, and
    so do files at the top of the tree.
    """
    folders: set[str] = set()
    files: list[str] = []
    for path in paths:
        parent = path.rpartition("/")[0]
        if parent and repo.tree_path(parent):
            folders.add(parent)
        else:
            files.append(path)
    return [f":(literal){p}" for p in (*sorted(folders), *files)]


def _dirty(repo: KnowledgeRepo, paths: list[str]) -> set[str]:
    """Which of ``paths`` (repository-relative) have local changes, tracked or not.

    Only the incoming paths are asked about (git stats those, not the whole work tree),
    through their folders (:func:`_status_specs`; other changes there are left out); a very
    large change asks about everything instead.
    """
    if not paths:
        return set()
    specs = _status_specs(repo, paths)
    spec = ["--", *specs] if len(specs) <= _DIRTY_SPEC_LIMIT else []
    wanted = set(paths)
    return {p for p in git.work_changes(repo.workdir, *spec[1:]) if p in wanted}


def _same_as_incoming(repo: KnowledgeRepo, target: str, path: str) -> bool:
    """True for an untracked file identical to the incoming one (the caller removes it).

    Trigger: 'vc init' then 'pull' writes the managed .gitignore/.gitattributes before the
    remote's identical copies arrive. Why: git refuses to overwrite untracked files. Outcome:
    the identical local copy is dropped and the pull goes through.
    """
    if git.is_tracked(repo.workdir, path):
        return False
    local = repo.workdir / path
    try:
        return local.read_bytes() == objects.blob_at(repo.workdir, target, path)
    except OSError:
        return False


def refuse_clash(repo: KnowledgeRepo, target: str, arriving: list[str], action: str
                  ) -> list[str]:
    """Raises ConflictError naming the arriving paths with local changes (nothing changed).

    Returns the untracked ones identical to the incoming file (the caller removes them).
    """
    clash = sorted(_dirty(repo, arriving))  # only arriving paths are returned
    same = [p for p in clash if _same_as_incoming(repo, target, p)]
    clash = [p for p in clash if p not in same]
    if clash:
        code = [p for p in clash if repo.tree_path(p) is None]
        if code:  # in-project mode: 'brv vc add' refuses code, so point at git
            advice = ("commit or stash the code files with git ('git stash' or 'git commit')"
                      + (" and commit the knowledge files ('brv vc add', 'brv vc commit')"
                         if len(code) < len(clash) else ""))
        else:
            advice = "commit them ('brv vc add' and 'brv vc commit -m ...') or move them away"
        raise ConflictError(
            f"{action} would overwrite uncommitted local changes in: "
            + ", ".join(repo.tree_path(p) or p for p in clash),
            file=clash[0],
            hint=f"{advice}, then {action} again; nothing was changed",
        )
    return same


def refuse_staged(repo: KnowledgeRepo, action: str) -> None:
    """Raises ConflictError before a true merge while the index differs from HEAD.

    Trigger: a staged change (a killed 'brv vc commit' leaves one) when a merge is not a
    fast-forward. Why: git's merge strategies refuse any staged change, and git (2.37+)
    then puts the state back through 'git stash create' / 'stash apply', which records a
    file staged as new and deleted since (an agent's MERGE or DELETE) as present: the
    deleted entry came back (issue 35's one lost write of 8 x 50). Outcome: nothing is
    run or changed; the message names the staged paths and the commit that clears them.
    """
    staged = git.differing_from(repo.workdir, "HEAD", ".", staged=True)
    if not staged:
        return
    shown = [repo.tree_path(p) or p for p in staged]
    code = any(repo.tree_path(p) is None for p in staged)
    advice = ("commit them ('brv vc commit -m ...'; code files with 'git commit') or "
              "unstage them ('git restore --staged PATH')" if code else
              "commit them ('brv vc commit -m ...')")
    raise ConflictError(
        f"{action} needs a merge, and changes are staged but not committed (git's merge "
        f"refuses them, and its roll-back would bring back staged files deleted since): "
        + ", ".join(shown[:10]) + (f" and {len(shown) - 10} more" if len(shown) > 10 else ""),
        file=staged[0],
        hint=f"{advice}, then {action} again; nothing was changed",
    )


def refuse_deleted(repo: KnowledgeRepo, gone: list[str], action: str) -> None:
    """Raises ConflictError: a fast-forward would write back the entries ``gone`` deleted here.

    Trigger: ``sync._merge`` found arriving entries changed by the incoming commits and
    missing from the work tree, deleted and not staged (an agent's MERGE or DELETE). Why:
    git's merge reads a tracked file missing from the work tree as unchanged and writes the
    incoming version, exit 0 (the in-project loss of the 8 x 50 run, through a plain ``git
    pull``); every other local change git's own check refuses. Outcome: nothing is run or
    changed; the message names the entries and the commit that turns it into a merge.
    """
    raise ConflictError(
        f"{action} would bring back entries deleted here and changed by the incoming "
        "commits: " + ", ".join(repo.tree_path(p) or p for p in gone),
        file=gone[0],
        hint=f"commit the deletion ('brv vc add', 'brv vc commit -m ...'), then {action} "
             "again (the change and your deletion then meet in the merge); nothing was changed",
    )
