"""``brv review``: the queue of reviewable changes (seed 001 "Review")."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.cli.review_text import pending_text
from brv_vc.errors import UsageError
from brv_vc.services import review as svc


def _detail(r: svc.ReviewDetail) -> str:
    from brv_vc.vc.diff_render import render_text  # only 'show' pays for it

    e = r.entry
    head = [f"#{e.id} {e.line()}", f"status: {e.status}  task: {e.task}  at: {e.created}"]
    return "\n".join([*head, render_text(r.diffs, "before", "after")])


def _decision(r: svc.Decision) -> str:
    lines = [f"{r.action} {len(r.entries)} review entr{'y' if len(r.entries) == 1 else 'ies'}"]
    lines.extend(f"  {e.id:>4}  {e.line()}" for e in r.entries)
    if r.restored:
        lines.append("restored: " + ", ".join(r.restored))
    return "\n".join(lines)


@click.group(invoke_without_command=True)
@click.option("--enable", "enable", flag_value=True, default=None,
              help="Turn review on (team use: commit and push refuse pending changes).")
@click.option("--disable", "enable", flag_value=False, help="Turn review off (a solo user).")
@json_option
@click.pass_context
def review(ctx: click.Context, enable: bool | None, as_json: bool) -> None:
    """Review dream changes and curate deletes/merges before a team sees them.

    With review enabled (brv review --enable, stored in .brv/config.yaml), every
    dream change and every curate DELETE or MERGE keeps a backup and waits here;
    'brv vc commit' and 'brv vc push' refuse to share pending ones.

    \b
    Example:
      brv review --enable
      brv review pending
      brv review reject 12
    """
    if ctx.invoked_subcommand is not None:
        if enable is not None:
            raise UsageError("--enable/--disable go alone: brv review --enable")
        return
    app = ctx.find_object(AppContext)
    assert app is not None
    project = app.project()
    if enable is None:
        emit(svc.pending(project), as_json, pending_text)
        return
    on = svc.set_enabled(project, enable)
    emit({"enabled": on}, as_json,
         lambda r: "review enabled: commit and push now refuse pending changes"
         if r["enabled"] else "review disabled: nothing is gated")


@review.command("pending")
@click.option("--all", "everything", is_flag=True, help="Show decided entries too.")
@json_option
@pass_app
def pending_cmd(app: AppContext, everything: bool, as_json: bool) -> None:
    """List the changes waiting for review (seed 001's lines).

    \b
    Example:
      brv review pending
      brv review pending --json
    """
    emit(svc.pending(app.project(), all_entries=everything), as_json, pending_text)


@review.command("show")
@click.argument("entry_id", type=int, metavar="ID")
@json_option
@pass_app
def show_cmd(app: AppContext, entry_id: int, as_json: bool) -> None:
    """Show one change with its semantic diff (as brv vc diff renders it).

    \b
    Example:
      brv review show 12
    """
    emit(svc.show(app.project(), entry_id), as_json, _detail)


def _decide(name: str, help_text: str) -> click.Command:
    @click.command(name, help=help_text)
    @click.argument("ids", nargs=-1, type=int, metavar="[ID]...")
    @click.option("--file", "files", multiple=True, metavar="PATH",
                  help="Every pending entry that touched PATH (repeatable).")
    @click.option("--all", "everything", is_flag=True, help="Every pending entry.")
    @json_option
    @pass_app
    def command(app: AppContext, ids: tuple[int, ...], files: tuple[str, ...],
                everything: bool, as_json: bool) -> None:
        action = svc.approve if name == "approve" else svc.reject
        result = action(app.project(), app.now, ids, files=files, everything=everything)
        for problem in result.problems:
            warn(problem)
        emit(result, as_json, _decision)

    return command


review.add_command(_decide("approve", """Keep changes: mark them approved and drop their backups.

    \b
    Example:
      brv review approve 12 13
      brv review approve --all
    """))
review.add_command(_decide("reject", """Undo changes: restore their backups byte for byte.

    An added file is removed; derived files are refreshed. A change that a later
    change built on is refused, naming that one (reject it first).

    \b
    Example:
      brv review reject 12
      brv review reject --file api/auth/oauth.md
    """))
