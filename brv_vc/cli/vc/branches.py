"""``brv vc branch``, ``checkout`` and ``merge``: branches, with the knowledge-aware merge."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.cli.vc import render as txt
from brv_vc.cli.vc.options import emit_sync, repo_of, unrelated_option
from brv_vc.errors import UsageError
from brv_vc.services import vc


@click.command()
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
    result = vc.branch(repo_of(app), name, delete=delete, all_branches=all_branches,
                         set_upstream_to=upstream)
    emit(result, as_json, txt.branch_text)


@click.command()
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
    project = app.project()
    result = vc.checkout(project, vc.prepare(project), app.now, name, create=create)
    emit(result, as_json, txt.sync_text)


@click.command()
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
    project = app.project()
    repo = vc.prepare(project)
    if sum([abort, cont, ref is not None]) != 1:
        raise UsageError("give a branch to merge, or --abort, or --continue",
                         hint="example: brv vc merge review/q3")
    if abort:
        result = vc.merge_abort(repo, project, app.now)
    elif cont:
        result = vc.merge_continue(project, repo, app.now)
    else:
        result = vc.merge(project, repo, app.now, ref or "", allow_unrelated=allow_unrelated)
    emit_sync(result, as_json)
