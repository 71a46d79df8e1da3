"""``brv vc clone URL``: clone a knowledge repository into the project's empty tree.

It adds the checks a plain ``git clone`` lacks (a whole in-project project behind the URL, a
remote HEAD naming a branch that does not exist), and rolls back completely when refused.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from brv_vc.errors import BrvError, ConflictError
from brv_vc.scrub import mask_url
from brv_vc.services.vc.configure import register_drivers
from brv_vc.services.vc.setup import (
    DEFAULT_BRANCH,
    InitResult,
    create_brv,
    ignore_brv_in_project_repo,
    project_at,
    with_hooks,
)
from brv_vc.tree.project import Project
from brv_vc.vc import exclusions
from brv_vc.vc.git import remote as git_remote
from brv_vc.vc.repo import KnowledgeRepo, refuse_transport, translate


def clone_repo(cwd: Path, url: str, *, hooks: bool = True
               ) -> tuple[Project, KnowledgeRepo, InitResult]:
    """``brv vc clone URL``: clone a knowledge repository into the (empty) context tree.

    Raises:
        ConflictError: the tree already holds a repository or files.
        GitError: the clone failed (unreachable remote, bad URL) or the URL names a
            transport brv never runs (``fd::``, ``ext::``); nothing is left behind.
    """
    refuse_transport(url, "brv vc clone")
    project = project_at(cwd)
    tree = project.tree
    if (tree / ".git").exists():
        raise ConflictError(
            "the context tree is already a git repository",
            hint="use 'brv vc remote add origin URL' and 'brv vc pull' instead",
        )
    if tree.exists() and any(tree.iterdir()):
        raise ConflictError(
            f"the context tree ({tree}) already holds files; clone needs it empty",
            hint="move the files away, or run 'brv vc init', 'brv vc remote add origin URL' "
                 "and 'brv vc pull'",
        )
    had_brv = project.brv_dir.exists()
    create_brv(project)
    tree.rmdir()  # empty (checked above); git clone wants to create it
    proc = git_remote.clone(url, tree, cwd=project.brv_dir)
    if proc.returncode != 0:
        _roll_back_clone(project, had_brv)
        raise translate(["clone", url], proc, what=f"clone of {mask_url(url)}")
    if (tree / ".brv" / "context-tree").is_dir() or (tree / ".brv" / "config.yaml").is_file():
        # Trigger: the URL holds a whole project that tracks its tree in-project. Why: its
        # code would land inside .brv/context-tree/ (a tree inside the tree). Outcome: the
        # clone is undone and the user is told how to adopt that project instead.
        _roll_back_clone(project, had_brv)
        raise ConflictError(
            f"{mask_url(url)} is a project that tracks its knowledge in-project (it holds "
            ".brv/ itself), not a knowledge repository; nothing was changed",
            hint=f"clone the project itself ('git clone {mask_url(url)}'), then run "
                 "'brv vc init --in-project' inside it",
        )
    repo = KnowledgeRepo(tree, "")
    try:
        notes = _check_out_a_branch(repo, url)
    except BrvError:  # refused, or the checkout failed: leave nothing behind
        _roll_back_clone(project, had_brv)
        raise
    written = exclusions.ensure_files(tree)
    register_drivers(repo)
    ignore_brv_in_project_repo(project)
    from brv_vc.services.vc.adopt import init_step

    tracked = init_step(project, repo, adopt=False)  # a ByteRover remote commits derived files
    result = InitResult("standalone", str(tree), "", False, tuple(written), url,
                        notes=(*notes, *tracked.notes), derived_tracked=tracked.tracked)
    return project, repo, with_hooks(project, result) if hooks else result


def _check_out_a_branch(repo: KnowledgeRepo, url: str) -> tuple[str, ...]:
    """Checks out a real branch when the remote's HEAD names one that does not exist.

    Trigger: a bare repository whose HEAD says 'master' while only 'main' was pushed. Why:
    git leaves an empty, unborn checkout and the clone looks like an empty repository.
    Outcome: 'main' (or the only branch) is checked out and a note says so; with several
    branches and no 'main' the clone is refused (the caller rolls it back).

    Raises:
        ConflictError: several branches, none called main.
    """
    if repo.head() is not None:
        return ()
    branches = git_remote.tracking_branches(repo, "origin")
    if not branches:
        return ()  # a truly empty remote: the first push creates the branch
    if DEFAULT_BRANCH in branches:
        chosen = DEFAULT_BRANCH
    elif len(branches) == 1:
        chosen = branches[0]
    else:
        raise ConflictError(
            f"the remote's HEAD names branch '{repo.branch()}', which does not exist there, "
            f"and it has several branches ({', '.join(branches)}); nothing was changed",
            hint=f"clone one of them with git: git clone -b {branches[0]} {mask_url(url)} "
                 ".brv/context-tree (or fix the remote's HEAD)",
        )
    missing = repo.branch()
    from brv_vc.vc.git.branch import switch_new

    switch_new(repo, chosen, tracking=f"origin/{chosen}")
    return (f"the remote's HEAD names branch '{missing}', which does not exist there; "
            f"checked out '{chosen}' instead",)


def _roll_back_clone(project: Project, had_brv: bool) -> None:
    """Leaves nothing behind of a clone that failed or was refused.

    The .brv/ this command created goes, else the (empty) tree comes back as it was.
    """
    if had_brv:
        shutil.rmtree(project.tree, ignore_errors=True)
        project.tree.mkdir(parents=True, exist_ok=True)
    else:
        shutil.rmtree(project.brv_dir, ignore_errors=True)
