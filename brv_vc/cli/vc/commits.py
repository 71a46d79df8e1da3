"""``brv vc status``, ``add``, ``commit``, ``log`` and ``reset``: the local history of knowledge."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.cli.vc import render as txt
from brv_vc.cli.vc.options import repo_of
from brv_vc.errors import UsageError
from brv_vc.services import vc


@click.command()
@json_option
@pass_app
def status(app: AppContext, as_json: bool) -> None:
    """Show the branch, ahead/behind, staged, unstaged, untracked and conflicted knowledge.

    \b
    Example:
      brv vc status --json
    """
    emit(vc.status(repo_of(app)), as_json, txt.status_text)


@click.command()
@click.argument("paths", nargs=-1)
@json_option
@pass_app
def add(app: AppContext, paths: tuple[str, ...], as_json: bool) -> None:
    """Stage knowledge files (new, changed and deleted); default: the whole tree.

    PATHS may be tree-relative, relative to the current folder, or (in-project mode)
    repository-relative as 'git status' prints them.

    \b
    Example:
      brv vc add
      brv vc add auth/jwt/token_rotation.md
      brv vc add .brv/context-tree/auth/jwt/token_rotation.md
    """
    result = vc.add(repo_of(app), paths, app.cwd)
    for message in txt.add_warnings(result):
        warn(message)
    emit(result, as_json, txt.add_text)


@click.command()
@click.option("-m", "--message", required=True, help="The commit message.")
@click.option("--include-pending", is_flag=True,
              help="Commit changes still waiting for review (review enabled).")
@json_option
@pass_app
def commit(app: AppContext, message: str, include_pending: bool, as_json: bool) -> None:
    """Commit the staged knowledge (never code, even in --in-project mode).

    Refused while conflicts or conflict markers remain, when a sync-excluded file was
    force-added, or (review enabled) while a staged change waits in 'brv review pending'.

    \b
    Example:
      brv vc commit -m "auth: document token rotation"
    """
    emit(vc.commit(repo_of(app), message, include_pending=include_pending, now=app.now), as_json,
         txt.commit_text)


@click.command()
@click.argument("ref", required=False)
@click.option("-a", "--all", "all_branches", is_flag=True, help="Commits of all branches.")
@click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(min=1),
              help="How many commits to show, newest first.")
@json_option
@pass_app
def log(app: AppContext, ref: str | None, all_branches: bool, limit: int, as_json: bool) -> None:
    """Show the newest commits that changed knowledge.

    \b
    Example:
      brv vc log --limit 5
    """
    entries = vc.log(repo_of(app), ref, all_branches=all_branches, limit=limit)
    emit({"commits": entries} if as_json else entries, as_json, txt.log_text)


@click.command()
@click.argument("args", nargs=-1)
@click.option("--soft", is_flag=True, help="Move the branch to REF; keep the index and files.")
@click.option("--mixed", is_flag=True, help="Move the branch to REF; unstage, keep files.")
@click.option("--hard", is_flag=True, help="Move the branch to REF; drop all changes.")
@json_option
@pass_app
def reset(app: AppContext, args: tuple[str, ...], soft: bool, mixed: bool, hard: bool,
          as_json: bool) -> None:
    """Unstage knowledge files, or (--soft/--mixed/--hard [REF]) move the branch.

    As in git, a lone REF that names no knowledge file moves the branch like --mixed
    (unstage, keep the files).

    \b
    Example:
      brv vc reset auth/jwt/token_rotation.md
      brv vc reset HEAD~1
      brv vc reset --hard HEAD
    """
    modes = [name for name, on in (("soft", soft), ("mixed", mixed), ("hard", hard)) if on]
    if len(modes) > 1:
        raise UsageError(f"--{' and --'.join(modes)} cannot be combined; give one mode",
                         hint="example: brv vc reset --hard HEAD")
    if modes and len(args) > 1:
        raise UsageError(f"--{modes[0]} takes at most one REF",
                         hint=f"example: brv vc reset --{modes[0]} HEAD~1")
    project = app.project()
    repo = vc.prepare(project)
    if modes:
        result = vc.reset(repo, mode=modes[0], ref=args[0] if args else None,
                             project=project, now=app.now)
    else:
        result = vc.reset(repo, args, cwd=app.cwd)
    emit(result, as_json, txt.reset_text)
