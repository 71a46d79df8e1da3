"""``brv vc init``, ``clone`` and ``remote``: putting the tree under git and naming its remotes."""

from __future__ import annotations

from dataclasses import replace

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.cli.vc import render as txt
from brv_vc.cli.vc.options import no_hooks_option
from brv_vc.services import vc


@click.command()
@click.option("--in-project", is_flag=True,
              help="Track the tree in the project's own git repository instead of a nested one.")
@click.option("--adopt", is_flag=True,
              help="Untrack derived files git tracks (a ByteRover tree) in one commit of "
                   "their own; their contents stay on disk and are kept while current.")
@no_hooks_option
@json_option
@pass_app
def init(app: AppContext, in_project: bool, adopt: bool, no_hooks: bool, as_json: bool) -> None:
    """Put the context tree under git (default branch main). Safe to run again.

    Also writes the sync-exclusion rules, registers the merge and diff drivers and installs
    brv's git hooks, so plain git commands keep knowledge valid and indexed.

    A tree whose derived files (_index.md, abstracts, overviews, _manifest.json) are tracked
    is adopted with --adopt, or after a confirmation on a terminal.

    \b
    Example:
      brv vc init                # own repository at .brv/context-tree/.git
      brv vc init --in-project   # knowledge travels with the code
      brv vc init --adopt        # a ByteRover tree: untrack its derived files
    """
    import sys

    result = vc.init_repo(app.cwd, in_project=in_project, hooks=not no_hooks, now=app.now,
                          adopt=adopt)
    if result.derived_tracked and not as_json and sys.stdin.isatty() and click.confirm(
        f"{len(result.derived_tracked)} derived file(s) are tracked by git. Untrack them in "
        "one commit of their own (the files stay on disk)?", default=True, err=True,
    ):
        result = vc.init_repo(app.cwd, in_project=in_project, hooks=not no_hooks,
                              now=app.now, adopt=True)
    if no_hooks:  # chosen: the vc commands after it do not warn about missing hooks
        from brv_vc.services.hooks import acknowledge

        acknowledge(app.project())
    emit(result, as_json, txt.init_text)


@click.command()
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
    project, repo, result = vc.clone_repo(app.cwd, url, hooks=not no_hooks)
    after = vc.after_change(project, repo, None, repo.head(), app.now)
    notes = (*result.notes, *(f"warning: {p}" for p in after.problems))
    from brv_vc.services.hooks import acknowledge

    # its notes say which hooks it installed: the vc commands after it (the fast pull too,
    # cli/start.hooks_notice) only stat, until the situation changes
    acknowledge(project)
    emit(replace(result, notes=notes), as_json, txt.init_text)


@click.command()
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
    result = vc.remote(app.project(), action or "list", name, url)
    emit(result, as_json, txt.remote_text)
