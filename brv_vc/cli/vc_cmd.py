"""``brv vc ...``: team sync of the context tree over any git remote.

The module also holds the hidden ``brv merge-driver`` git calls during merges.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import click

from brv_vc.cli import vc_render as txt
from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, jsonable, warn
from brv_vc.errors import UsageError
from brv_vc.services import vc as setup

# The services are imported inside each command: 'brv vc status' is budgeted at 2x a plain
# 'git status' and must not pay for the imports of merge, diff and sync.
if TYPE_CHECKING:
    from brv_vc.services.vc import SyncResult
    from brv_vc.vc.repo import KnowledgeRepo


def _repo(app: AppContext) -> KnowledgeRepo:
    return setup.prepare(app.project())


def _emit_sync(result: SyncResult, as_json: bool) -> None:
    """Prints a pull/merge result; conflicts give ``"ok": false`` and exit 1 (as git does)."""
    if as_json and result.conflicts:
        click.echo(json.dumps({"ok": False, **jsonable(result)}, indent=2, ensure_ascii=False))
    else:
        emit(result, as_json, txt.sync_text)
    if result.conflicts:
        raise click.exceptions.Exit(1)


@click.group()
def vc() -> None:
    """Version control for the context tree: share knowledge with your team over git.

    Any git remote works (a path, file://, ssh, https), with knowledge-aware merges and diffs.

    \b
    Example:
      brv vc init
      brv vc remote add origin git@github.com:acme/knowledge.git
      brv vc add && brv vc commit -m "auth: token rotation" && brv vc push -u
    """


no_hooks_option = click.option(
    "--no-hooks", is_flag=True,
    help="Do not install brv's git hooks (install them later with 'brv hooks install').")


@vc.command()
@click.option("--in-project", is_flag=True,
              help="Track the tree in the project's own git repository instead of a nested one.")
@no_hooks_option
@json_option
@pass_app
def init(app: AppContext, in_project: bool, no_hooks: bool, as_json: bool) -> None:
    """Put the context tree under git (default branch main). Safe to run again.

    Also writes the sync-exclusion rules, registers the merge and diff drivers and installs
    brv's git hooks, so plain git commands keep knowledge valid and indexed.

    \b
    Example:
      brv vc init                # own repository at .brv/context-tree/.git
      brv vc init --in-project   # knowledge travels with the code
    """
    emit(setup.init_repo(app.cwd, in_project=in_project, hooks=not no_hooks, now=app.now),
         as_json, txt.init_text)


@vc.command()
@click.argument("url")
@no_hooks_option
@json_option
@pass_app
def clone(app: AppContext, url: str, no_hooks: bool, as_json: bool) -> None:
    """Clone a knowledge repository into this project's (empty) context tree.

    \b
    Example:
      brv vc clone git@github.com:acme/knowledge.git
    """
    from brv_vc.services.vc import after_change, clone_repo

    project, repo, result = clone_repo(app.cwd, url, hooks=not no_hooks)
    after = after_change(project, repo, None, repo.head(), app.now)
    notes = (*result.notes, *(f"warning: {p}" for p in after.problems))
    emit(replace(result, notes=notes), as_json, txt.init_text)


@vc.command()
@json_option
@pass_app
def status(app: AppContext, as_json: bool) -> None:
    """Show the branch, ahead/behind, staged, unstaged, untracked and conflicted knowledge.

    \b
    Example:
      brv vc status --json
    """
    from brv_vc.services.vc import status as read_status

    emit(read_status(_repo(app)), as_json, txt.status_text)


@vc.command()
@click.argument("ref", required=False)
@click.option("--staged", is_flag=True, help="Compare HEAD with the index.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True, help="markdown: ready for a PR comment.")
@json_option
@pass_app
def diff(app: AppContext, ref: str | None, staged: bool, fmt: str, as_json: bool) -> None:
    """Semantic diff of knowledge: entries added, removed, renamed or modified.

    A modified entry shows its frontmatter field by field, its body section by section and
    its relations.

    REF compares REF with the working tree; A..B compares two commits.

    \b
    Example:
      brv vc diff --staged
      brv vc diff origin/main..HEAD --format markdown > comment.md
    """
    from brv_vc.services.vc import semantic_diff
    from brv_vc.vc.diff_render import render_markdown, render_text

    report = semantic_diff(_repo(app), ref, staged=staged)
    if as_json or fmt == "json":
        emit({"base": report.base, "target": report.target, "counts": report.counts(),
              "entries": jsonable(report.entries)}, True, str)
    elif fmt == "markdown":
        click.echo(render_markdown(report.entries, report.base, report.target), nl=False)
    else:
        click.echo(render_text(report.entries, report.base, report.target))


@vc.command()
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
    from brv_vc.services.vc import add as stage

    result = stage(_repo(app), paths, app.cwd)
    for message in txt.add_warnings(result):
        warn(message)
    emit(result, as_json, txt.add_text)


@vc.command()
@click.option("-m", "--message", required=True, help="The commit message.")
@json_option
@pass_app
def commit(app: AppContext, message: str, as_json: bool) -> None:
    """Commit the staged knowledge (never code, even in --in-project mode).

    Refused while conflicts or conflict markers remain, or when a sync-excluded file was
    force-added.

    \b
    Example:
      brv vc commit -m "auth: document token rotation"
    """
    from brv_vc.services import vc as local

    emit(local.commit(_repo(app), message), as_json, txt.commit_text)


@vc.command()
@click.argument("ref", required=False)
@click.option("-a", "--all", "all_branches", is_flag=True, help="Commits of all branches.")
@click.option("-n", "--limit", default=10, show_default=True, type=click.IntRange(min=1))
@json_option
@pass_app
def log(app: AppContext, ref: str | None, all_branches: bool, limit: int, as_json: bool) -> None:
    """Show the newest commits that changed knowledge.

    \b
    Example:
      brv vc log --limit 5
    """
    from brv_vc.services import vc as local

    entries = local.log(_repo(app), ref, all_branches=all_branches, limit=limit)
    emit({"commits": entries} if as_json else entries, as_json, txt.log_text)


@vc.command()
@click.argument("name", required=False)
@click.option("-a", "--all", "all_branches", is_flag=True, help="Include remote branches.")
@click.option("-d", "--delete", is_flag=True, help="Delete NAME (only when merged).")
@click.option("--set-upstream-to", "upstream", metavar="REMOTE/BRANCH",
              help="Set the upstream of the current branch.")
@json_option
@pass_app
def branch(app: AppContext, name: str | None, all_branches: bool, delete: bool,
           upstream: str | None, as_json: bool) -> None:
    """List, create or delete branches.

    \b
    Example:
      brv vc branch review/q3
      brv vc branch -d review/q3
    """
    from brv_vc.services import vc as vc_branch

    result = vc_branch.branch(_repo(app), name, delete=delete, all_branches=all_branches,
                         set_upstream_to=upstream)
    emit(result, as_json, txt.branch_text)


@vc.command()
@click.argument("name")
@click.option("-b", "create", is_flag=True, help="Create the branch first.")
@json_option
@pass_app
def checkout(app: AppContext, name: str, create: bool, as_json: bool) -> None:
    """Switch branch; refuses when local changes would be overwritten.

    \b
    Example:
      brv vc checkout -b review/q3
    """
    from brv_vc.services import vc as vc_branch

    project = app.project()
    result = vc_branch.checkout(project, setup.prepare(project), app.now, name, create=create)
    emit(result, as_json, txt.sync_text)


unrelated_option = click.option(
    "--allow-unrelated-histories", "allow_unrelated", is_flag=True,
    help="Join two histories with no commit in common (e.g. two separate 'brv vc init').")


@vc.command()
@click.argument("ref", required=False)
@click.option("--abort", is_flag=True, help="Restore the state before the merge.")
@click.option("--continue", "cont", is_flag=True, help="Commit once conflicts are resolved.")
@unrelated_option
@json_option
@pass_app
def merge(app: AppContext, ref: str | None, abort: bool, cont: bool, allow_unrelated: bool,
          as_json: bool) -> None:
    """Merge a branch with the knowledge-aware driver (exit 1 when conflicts remain).

    \b
    Example:
      brv vc merge review/q3
      brv vc merge --continue
    """
    from brv_vc.services import vc as sync

    project = app.project()
    repo = setup.prepare(project)
    if sum([abort, cont, ref is not None]) != 1:
        raise UsageError("give a branch to merge, or --abort, or --continue",
                         hint="example: brv vc merge review/q3")
    if abort:
        result = sync.merge_abort(repo, project, app.now)
    elif cont:
        result = sync.merge_continue(project, repo, app.now)
    else:
        result = sync.merge(project, repo, app.now, ref or "", allow_unrelated=allow_unrelated)
    _emit_sync(result, as_json)


@vc.command()
@click.argument("remote", required=False)
@json_option
@pass_app
def fetch(app: AppContext, remote: str | None, as_json: bool) -> None:
    """Download commits from the remote without merging them.

    \b
    Example:
      brv vc fetch
    """
    from brv_vc.services import vc as sync

    result = sync.fetch(_repo(app), remote)
    emit(result, as_json, lambda r: f"Fetched {r.remote} ({r.url}): {r.ahead} ahead, "
                                    f"{r.behind} behind")


@vc.command()
@click.argument("remote", required=False)
@click.argument("branch_name", metavar="[BRANCH]", required=False)
@unrelated_option
@json_option
@pass_app
def pull(app: AppContext, remote: str | None, branch_name: str | None, allow_unrelated: bool,
         as_json: bool) -> None:
    """Fetch and merge the upstream; refuses to overwrite uncommitted changes.

    \b
    Example:
      brv vc pull
      brv vc pull origin main
      brv vc pull --allow-unrelated-histories origin main
    """
    from brv_vc.services import vc as sync

    project = app.project()
    result = sync.pull(project, setup.prepare(project), app.now, remote, branch_name,
                       allow_unrelated=allow_unrelated)
    _emit_sync(result, as_json)


@vc.command()
@click.argument("remote", required=False)
@click.argument("branch_name", metavar="[BRANCH]", required=False)
@click.option("-u", "--set-upstream", is_flag=True, help="Remember the remote branch.")
@json_option
@pass_app
def push(app: AppContext, remote: str | None, branch_name: str | None, set_upstream: bool,
         as_json: bool) -> None:
    """Publish commits (never forced; a rejected push says to pull first).

    \b
    Example:
      brv vc push -u
    """
    from brv_vc.services import vc as sync

    result = sync.push(_repo(app), remote, branch_name, set_upstream=set_upstream)
    emit(result, as_json, txt.push_text)


@vc.command()
@click.argument("action", required=False, type=click.Choice(["add", "set-url", "remove"]))
@click.argument("name", required=False)
@click.argument("url", required=False)
@json_option
@pass_app
def remote(app: AppContext, action: str | None, name: str | None, url: str | None,
           as_json: bool) -> None:
    """Show or change remotes (any URL git accepts; passwords are masked).

    \b
    Example:
      brv vc remote add origin /srv/git/knowledge.git
      brv vc remote set-url origin https://github.com/acme/knowledge.git
    """
    result = setup.remote(app.project(), action or "list", name, url)
    emit(result, as_json, txt.remote_text)


@vc.command()
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
    from brv_vc.services import vc as local

    modes = [name for name, on in (("soft", soft), ("mixed", mixed), ("hard", hard)) if on]
    if len(modes) > 1:
        raise UsageError(f"--{' and --'.join(modes)} cannot be combined; give one mode",
                         hint="example: brv vc reset --hard HEAD")
    if modes and len(args) > 1:
        raise UsageError(f"--{modes[0]} takes at most one REF",
                         hint=f"example: brv vc reset --{modes[0]} HEAD~1")
    project = app.project()
    repo = setup.prepare(project)
    if modes:
        result = local.reset(repo, mode=modes[0], ref=args[0] if args else None,
                             project=project, now=app.now)
    else:
        result = local.reset(repo, args, cwd=app.cwd)
    emit(result, as_json, txt.reset_text)


@vc.command(hidden=True)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def textconv(file: Path) -> None:
    """Textconv for git: a knowledge file as a normalised, readable rendering."""
    from brv_vc.services.vc import render_textconv

    click.echo(render_textconv(file), nl=False)


@click.command("merge-driver", hidden=True)
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("theirs", type=click.Path(path_type=Path))
@click.argument("path", required=False, default="")
def merge_driver(base: Path, ours: Path, theirs: Path, path: str) -> None:
    """Merge driver for git (%O %A %B %P): merge a knowledge file; exit 1 on conflicts."""
    from brv_vc.services.vc import run_merge_driver

    result = run_merge_driver(base, ours, theirs, path)
    if result.conflicts:
        click.echo(f"brv: conflict in {path}: {', '.join(result.conflicts)}", err=True)
        raise click.exceptions.Exit(1)


from brv_vc.cli.vc_recover_cmd import recover  # noqa: E402 - registered on the group above

vc.add_command(recover)
