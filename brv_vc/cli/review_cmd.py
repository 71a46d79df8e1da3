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


_VERBS = {"approved": "approve", "rejected": "reject"}


def _entries(n: int) -> str:
    return f"{n} review entr{'y' if n == 1 else 'ies'}"


def _decision(r: svc.Decision) -> str:
    verb = f"would {_VERBS.get(r.action, r.action)}" if r.dry_run else r.action
    lines = [f"{verb} {_entries(len(r.entries))}"]
    lines.extend(f"  {e.id:>4}  {e.line()}" for e in r.entries)
    if r.also:
        lines.append(f"{'would undo' if r.dry_run else 'undid'} {_entries(len(r.also))} "
                     "that built on them too:")
        lines.extend(f"  {p.entry.id:>4}  {p.entry.line()} ({p.was}, built on {p.on})"
                     for p in r.also)
    if r.restored:
        lines.append("restored: " + ", ".join(r.restored))
    if r.dry_run:
        lines.append("nothing changed (--dry-run)")
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
    @click.option("--kind", metavar="KIND",
                  help="Every pending entry of one kind (MERGE, ARCHIVE, CROSS_REFERENCE, "
                       "TEMPORAL_UPDATE, CREATE, DELETE...).")
    @click.option("--domain", metavar="DOMAIN",
                  help="Every pending entry about a file of one domain.")
    @click.option("--dream", "task", metavar="ID",
                  help="Every pending entry of one dream (its id: drm-...).")
    @click.option("--all", "everything", is_flag=True, help="Every pending entry.")
    @click.option("--dry-run", is_flag=True, help="List what would be decided; change nothing.")
    @json_option
    @pass_app
    def command(app: AppContext, ids: tuple[int, ...], files: tuple[str, ...],
                kind: str | None, domain: str | None, task: str | None, everything: bool,
                dry_run: bool, as_json: bool) -> None:
        action = svc.approve if name == "approve" else svc.reject
        group = svc.Group(kind=kind, domain=domain, task=task)
        result = action(app.project(), app.now, ids, files=files, everything=everything,
                        group=group, dry_run=dry_run)
        for problem in result.problems:
            warn(problem)
        emit(result, as_json, _decision)

    return command


review.add_command(_decide("approve", """Keep changes: mark them approved and drop their backups.

    Name entries by id, by file, or a group at once: --kind, --domain and
    --dream (together they narrow each other), or --all. --dry-run lists them.

    \b
    Example:
      brv review approve 12 13
      brv review approve --kind CROSS_REFERENCE --dry-run
      brv review approve --dream drm-1764400000000
    """))
review.add_command(_decide("reject", """Undo changes: restore their backups byte for byte.

    An added file is removed; derived files are refreshed. Later changes that
    built on a rejected one (touched the same files after it), pending or
    already approved, are undone with it, and the answer names them; --dry-run
    lists them first.

    \b
    Example:
      brv review reject 12
      brv review reject --kind MERGE --domain api --dry-run
      brv review reject --file api/auth/oauth.md
    """))
