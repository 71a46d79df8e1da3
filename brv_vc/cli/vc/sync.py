"""``brv vc fetch``, ``pull``, ``push`` and ``sync``: sharing knowledge with a remote."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.cli.vc import render as txt
from brv_vc.cli.vc.options import emit_sync, repo_of, unrelated_option
from brv_vc.services import vc
from brv_vc.services.vc import retry


@click.command()
@click.argument("remote", required=False)
@json_option
@pass_app
def fetch(app: AppContext, remote: str | None, as_json: bool) -> None:
    """Download commits from the remote without merging them.

    \b
    Example:
      brv vc fetch
    """
    result = vc.fetch(repo_of(app), remote)
    emit(result, as_json, txt.fetch_text)


@click.command()
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
    project = app.project()
    result = vc.pull(project, vc.prepare(project), app.now, remote, branch_name,
                       allow_unrelated=allow_unrelated)
    emit_sync(result, as_json)


@click.command()
@click.argument("remote", required=False)
@click.argument("branch_name", metavar="[BRANCH]", required=False)
@click.option("-u", "--set-upstream", is_flag=True, help="Remember the remote branch.")
@click.option("--include-pending", is_flag=True,
              help="Push changes still waiting for review (review enabled).")
@json_option
@pass_app
def push(app: AppContext, remote: str | None, branch_name: str | None, set_upstream: bool,
         include_pending: bool, as_json: bool) -> None:
    """Publish commits (never forced; a rejected push says to pull first).

    With review enabled, refused while a commit to publish carries a change that
    waits in 'brv review pending'.

    \b
    Example:
      brv vc push -u
    """
    result = vc.push(repo_of(app), remote, branch_name, set_upstream=set_upstream,
                     include_pending=include_pending)
    emit(result, as_json, txt.push_text)


@click.command(name="sync")
@click.option("--tries", type=click.IntRange(min=1), default=retry.TRIES, show_default=True,
              help="Pushes at most, each after a pull (a teammate's push may beat yours).")
@click.option("--max-wait", type=click.FloatRange(min=0), default=retry.MAX_WAIT,
              show_default=True, help="Longest wait between two tries, in seconds.")
@json_option
@pass_app
def sync_cmd(app: AppContext, tries: int, max_wait: float, as_json: bool) -> None:
    """Pull, then push; a push a teammate beat is pulled and pushed again.

    Waits between tries grow (doubling, jittered) up to --max-wait. Stops with exit 1 on
    a true conflict (resolve, 'brv vc merge --continue', sync again) or when every try
    was rejected (nothing is lost: sync again).

    \b
    Example:
      brv vc sync
      brv vc sync --tries 20 --max-wait 10 --json
    """
    project = app.project()
    result = vc.round_trip(project, vc.prepare(project), app.now, tries=tries,
                           max_wait=max_wait)
    emit_sync(result, as_json, txt.round_trip_text)
