"""``brv hooks install|uninstall|status`` and the hidden ``brv hook-impl`` the shims call."""

from __future__ import annotations

import json
import os
import sys

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, jsonable
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
}


def _text(report: svc.HooksReport, title: str) -> str:
    lines = [f"{title} {report.hooks_dir} ({report.mode} repository {report.repository})"]
    for hook in report.hooks:
        if hook.action:
            what = _ACTIONS.get(hook.action, hook.action).format(name=hook.name)
        else:
            what = hook.state + (f" (chains {hook.name}.legacy)" if hook.legacy else "")
            if hook.state == "installed" and hook.python and not os.access(hook.python, os.X_OK):
                what += f"; its Python {hook.python} is gone: run 'brv hooks install'"
            elif hook.state == "outdated":
                what += ": run 'brv hooks install' to upgrade"
        lines.append(f"  {hook.name:<14} {what}")
    lines.extend(f"note: {note}" for note in report.notes)
    return "\n".join(lines)


@click.group()
def hooks() -> None:
    """Install brv's git hooks (validate on commit, refresh after merge/checkout/rebase).

    The hooks go into the repository that holds the context tree: the nested
    .brv/context-tree/.git in standalone mode, else the project's own repository.
    A hook that was already there is kept as <name>.legacy and still runs first.

    \b
    Example:
      brv hooks install
      brv hooks status --json
      brv hooks uninstall
    """


@hooks.command()
@json_option
@pass_app
def install(app: AppContext, as_json: bool) -> None:
    """Install or upgrade the pre-commit, post-merge, post-checkout and post-rewrite hooks.

    Safe to run again: brv's own hooks are upgraded in place, other hooks are chained.

    \b
    Example:
      brv hooks install
    """
    report = svc.install_hooks(app.project())
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
    report = svc.uninstall_hooks(app.project())
    emit(report, as_json, lambda r: _text(r, "brv hooks removed from"))


@hooks.command()
@json_option
@pass_app
def status(app: AppContext, as_json: bool) -> None:
    """Show which hooks are installed, outdated, foreign or missing.

    \b
    Example:
      brv hooks status --json
    """
    report = svc.hooks_status(app.project())
    emit(report, as_json, lambda r: _text(r, "git hooks in"))


def _blocked_text(run: vc.HookRun) -> str:
    lines = [f"brv: commit refused: {len(run.problems)} staged file(s) are not valid knowledge"]
    for problem in run.problems:
        key = f" (key '{problem.key}')" if problem.key else ""
        lines.append(f"  {problem.file}{key}: {problem.message}")
        if problem.hint:
            lines.append(f"    fix: {problem.hint}")
    lines.append("Fix the files and commit again; to commit anyway (not recommended): "
                 "git commit --no-verify")
    return "\n".join(lines)


@click.command("hook-impl", hidden=True,
               context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
@click.argument("name")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@json_option
@pass_app
def hook_impl(app: AppContext, name: str, args: tuple[str, ...], as_json: bool) -> None:
    """What a git hook does (called by the shims that 'brv hooks install' writes).

    NAME is pre-commit, post-merge, post-checkout or post-rewrite with git's arguments, or
    'refresh' (the pre-commit framework's brv-refresh hook, whose arguments come from the
    PRE_COMMIT_* environment).

    \b
    Example:
      brv hook-impl post-checkout 0123abc 4567def 1
    """
    if name == "refresh":
        name, args = vc.framework_invocation(os.environ)
    stdin = sys.stdin.read() if name == "post-rewrite" and not sys.stdin.isatty() else ""
    index_file = os.environ.get("GIT_INDEX_FILE")
    try:
        run = vc.run_hook(app.cwd, name, args, app.now, stdin=stdin,
                           index_file=os.path.abspath(index_file) if index_file else None,
                           include_pending=os.environ.get("BRV_INCLUDE_PENDING") == "1")
    except UsageError:
        raise
    except Exception as exc:  # fail open: a bug in brv must not block or break git
        click.echo(f"brv: warning: the {name} hook failed ({type(exc).__name__}: {exc}); "
                   "git went ahead without it. This is a bug in brv; please report it.",
                   err=True)
        return
    if as_json:
        click.echo(json.dumps({"ok": not run.blocked, **jsonable(run)}, indent=2))
    for warning in run.warnings:
        click.echo(f"brv: warning: {warning}", err=True)
    if run.blocked:
        if not as_json:
            click.echo(_blocked_text(run), err=True)
        click.get_current_context().exit(1)
