"""``brv hooks install|uninstall|status`` and the hidden ``brv hook-impl`` the shims call."""

from __future__ import annotations

import json
import os
import sys

import click

from brv_vc.cli import hook_run
from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.hook_text import blocked_text
from brv_vc.cli.plain import versioned
from brv_vc.cli.render import emit, jsonable
from brv_vc.cli.start import hooks_notice
from brv_vc.errors import UsageError
from brv_vc.services import hooks as svc
from brv_vc.services import vc

_ACTIONS = {
    "installed": "installed",
    "upgraded": "upgraded to this version",
    "unchanged": "already up to date",
    "chained": "installed; your existing hook was kept as {name}.legacy and runs first",
    "removed": "removed",
    "restored": "removed; your previous hook was restored",
    "kept": "not brv's hook: left alone",
    "absent": "not installed",
    "created": "brv's line is in a new {config}/{name}",
    "appended": "brv's line was added to {config}/{name}",
    "managed": "",
    "single": "brv's old hook ({name}.legacy) removed: pre-commit runs brv's part from its "
              "config, once",
}


def _runs(hook: svc.HookState, report: svc.HooksReport) -> str:
    """Whose script git runs for ``hook`` and whether brv's part runs (hook managers)."""
    if not hook.runner:
        return "no hook: git runs nothing here; brv's part does not run"
    whose = "your own script" if hook.runner == "foreign" else f"{hook.runner}'s script"
    part = "runs" if hook.brv_runs else "does NOT run"
    how = (" (as its legacy hook)" if hook.runner == "pre-commit" and hook.brv_runs
           and hook.legacy else "")
    return f"{whose} runs; brv's part {part}{how}"


def _text(report: svc.HooksReport, title: str) -> str:
    lines = [f"{title} {report.hooks_dir} ({report.mode} repository {report.repository})"]
    if report.manager:
        lines.append(f"hook manager: {report.manager} ({report.manager_config})")
    for hook in report.hooks:
        if hook.action and _ACTIONS.get(hook.action, hook.action):
            what = _ACTIONS.get(hook.action, hook.action).format(
                name=hook.name, config=report.manager_config)
        elif report.manager and hook.runner != "brv":
            what = _runs(hook, report)
        else:
            what = hook.state + (f" (chains {hook.name}.legacy)" if hook.legacy else "")
            if hook.state == "installed" and hook.python and not os.access(hook.python, os.X_OK):
                what += f"; its Python {hook.python} is gone: run 'brv hooks install'"
            elif hook.state == "outdated":
                what += ": run 'brv hooks install' to upgrade"
        lines.append(f"  {hook.name:<14} {what}")
    lines.extend(f"note: {note}" for note in report.notes)
    if report.snippet:
        lines.extend(["", report.snippet])
    return "\n".join(lines)


@click.group()
def hooks() -> None:
    """Install brv's git hooks (validate on commit and push, refresh after merge/checkout/rebase).

    The hooks go into the repository that holds the context tree: the nested
    .brv/context-tree/.git in standalone mode, else the project's own repository.
    A hook that was already there is kept as <name>.legacy and still runs first. A hook
    manager (pre-commit framework, husky, lefthook, simple-git-hooks, a team's
    core.hooksPath) is never rewritten: brv joins it its own way (docs/hooks.md).

    \b
    Example:
      brv hooks install
      brv hooks status --json
      brv hooks uninstall
    """


@hooks.command()
@click.option("--integrate", "--yes", "integrate", is_flag=True,
              help="Write brv's part into lefthook's or the pre-commit framework's config "
                   "file without asking (idempotent). On a terminal brv asks first.")
@json_option
@pass_app
def install(app: AppContext, integrate: bool, as_json: bool) -> None:
    """Install or upgrade the pre-commit, commit-msg, post-merge, post-checkout, post-rewrite and pre-push hooks.

    Safe to run again: brv's own hooks are upgraded in place, other hooks are chained.
    Under husky, one guarded line goes into each .husky/<hook>; under the pre-commit
    framework, lefthook, simple-git-hooks or a team's core.hooksPath, nothing is renamed;
    brv's part is written into the lefthook / pre-commit config with --integrate (or when
    you agree on a terminal), else the config with it merged in is printed.

    \b
    Example:
      brv hooks install
      brv hooks install --integrate   # lefthook.yml / .pre-commit-config.yaml too
    """
    project = app.project()
    report = svc.install_hooks(project, integrate=integrate)
    if (report.can_integrate and not integrate and not as_json and sys.stdin.isatty()
            and click.confirm(f"Add brv's part to {report.manager_config}?", default=True,
                              err=True)):
        report = svc.install_hooks(project, integrate=True)
    emit(report, as_json, lambda r: _text(r, "brv hooks in"))


@hooks.command()
@json_option
@pass_app
def uninstall(app: AppContext, as_json: bool) -> None:
    """Remove brv's hooks and restore the hooks they replaced.

    \b
    Example:
      brv hooks uninstall
    """
    project = app.project()
    report = svc.uninstall_hooks(project)
    svc.acknowledge(project)  # chosen: the vc commands after it do not warn about it
    emit(report, as_json, lambda r: _text(r, "brv hooks removed from"))


@hooks.command()
@json_option
@pass_app
def status(app: AppContext, as_json: bool) -> None:
    """Show which hooks are installed, outdated, foreign or missing, and whether brv's part runs.

    With a hook manager it says whose script git runs for each hook and whether brv's
    part runs in it.

    \b
    Example:
      brv hooks status --json
    """
    report = svc.hooks_status(app.project())
    emit(report, as_json, lambda r: _text(r, "git hooks in"))


@click.command("hook-impl", hidden=True,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@json_option
@pass_app
def hook_impl(app: AppContext, name: str, args: tuple[str, ...], as_json: bool) -> None:
    """What a git hook does (called by the shims that 'brv hooks install' writes).

    NAME is pre-commit, commit-msg, post-merge, post-checkout, post-rewrite or pre-push with
    git's arguments, or
    'refresh' (the pre-commit framework's brv-refresh hook, whose arguments come from the
    PRE_COMMIT_* environment).

    \b
    Example:
      brv hook-impl post-checkout 0123abc 4567def 1
    """
    begun = hook_run.start(name, args, lambda text: click.echo(text, err=True))
    if isinstance(begun, int):
        click.get_current_context().exit(begun)
        return
    name, env = begun.name, begun.env
    try:
        run = vc.run_hook(app.cwd, name, begun.args, app.now, stdin=begun.stdin,
                          index_file=os.path.abspath(env.index_file) if env.index_file else None,
                          include_pending=env.include_pending, push_checked=env.push_checked,
                          commit_checked=env.commit_checked, refreshing=env.refreshing)
    except UsageError:
        raise
    except Exception as exc:  # fail open: a bug in brv must not block or break git
        click.echo(f"brv: warning: the {name} hook failed ({type(exc).__name__}: {exc}); "
                   "git went ahead without it. This is a bug in brv; please report it.",
                   err=True)
        click.get_current_context().exit(hook_run.end(begun, False))
        return
    if as_json:
        click.echo(json.dumps(versioned({"ok": not run.blocked, **jsonable(run)}), indent=2))
    for warning in run.warnings:
        click.echo(f"brv: warning: {warning}", err=True)
    for note in () if as_json else run.notes:
        click.echo(f"brv: note: {note}", err=True)
    if name == "post-checkout" and not as_json:
        hooks_notice(app.cwd, lambda text: click.echo(text, err=True))
    if run.blocked and not as_json:
        click.echo(blocked_text(run), err=True)
    status = hook_run.end(begun, run.blocked)
    if status:
        click.get_current_context().exit(status)
