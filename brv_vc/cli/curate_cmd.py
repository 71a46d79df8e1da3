"""``brv curate``: apply curate operations from a JSON batch or one shortcut subcommand."""

from __future__ import annotations

import json
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.curate_options import (
    build_op,
    check_shortcut,
    content_options,
    dry_run_option,
)
from brv_vc.cli.input_files import read_source
from brv_vc.cli.plain import jsonable, versioned
from brv_vc.cli.render import emit
from brv_vc.errors import UsageError
from brv_vc.services.curate import CurateResult, load_ops, run_batch


def _text(result: CurateResult) -> str:
    lines = []
    for r in result.applied:
        if r.status == "success" and result.dry_run and r.action != "unchanged":
            lines.append(r.message)  # "would add a/b/x.md"
        elif r.status == "success":
            lines.append(
                f"{r.action:<9} {r.file}" + (f"  ({r.message})" if r.action == "unchanged" else "")
            )
        elif r.status == "skipped":
            lines.append(f"skipped   {r.type} {r.path}")
    lines.append(
        result.summary.text() + (" (dry run: nothing was written)" if result.dry_run else "")
    )
    return "\n".join(lines)


def _finish(
    app: AppContext, ops: list[dict[str, Any]], atomic: bool, as_json: bool, dry_run: bool = False
) -> None:
    result = run_batch(app.project(), ops, app.now, atomic=atomic, dry_run=dry_run)
    if as_json and not result.ok:
        # the error object every failing --json command prints, beside the per-op results
        click.echo(json.dumps(versioned({**jsonable(result), "ok": False,
                                         "error": batch_error(result)}),
                              indent=2, ensure_ascii=False))
    else:
        emit(result, as_json, _text)
    if not as_json:
        for r in result.applied:
            if r.status == "failed":
                click.echo(f"brv: error: {r.type} {r.path}: {r.message}", err=True)
                if r.hint:
                    click.echo(f"hint: {r.hint}", err=True)
        for problem in result.problems:
            click.echo(f"brv: warning: {problem}", err=True)
    if not result.ok:
        raise click.exceptions.Exit(1)


def batch_error(result: CurateResult) -> dict[str, str]:
    """The error object of a batch with failed operations (also the MCP tool's)."""
    failed = [r for r in result.applied if r.status == "failed"]
    total = len(result.applied)
    message = f"{len(failed)} of {total} operation(s) failed"
    if result.atomic:
        message += "; the batch is atomic, so nothing was applied"
    first = failed[0]
    return {
        "code": "operations_failed",
        "message": f"{message} (first: {first.type} {first.path}: {first.message})",
        "file": first.file or first.path,
        "hint": first.hint or "see each operation's message under 'applied'",
    }


@click.group(invoke_without_command=True)
@click.option("--ops", "ops_file", metavar="FILE|-", help="JSON array of operations ('-' = stdin).")
@click.option("--atomic", is_flag=True, help="Apply nothing if any operation would fail.")
@click.option("--dry-run", is_flag=True, help="Check and report the batch; write nothing.")
@json_option
@pass_app
@click.pass_context
def curate(
    ctx: click.Context,
    app: AppContext,
    ops_file: str | None,
    atomic: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Add, update, merge and delete knowledge (ADD, UPDATE, UPSERT, MERGE, DELETE).

    A batch is validated first (an invalid batch applies nothing); operations then run in
    order and each one succeeds or fails on its own. Exit code 1 when any failed. An
    operation is an object with type, path and reason, plus title, content, summary, tags,
    keywords, related, rawConcept, narrative, facts (ADD/UPDATE/UPSERT) or target (MERGE);
    the JSON Schema
    curate-ops.schema.json, installed in brv_vc/schemas/, describes every key. --dry-run
    and --atomic also apply to a subcommand given after them; --ops and a subcommand cannot
    be combined.

    \b
    Example:
      brv curate --ops ops.json --json
      brv curate --ops ops.json --dry-run
      echo '[{"type":"ADD","path":"auth/jwt","title":"Token rotation",
              "content":"Single-use.","reason":"from PR 12"}]' | brv curate --ops -
      brv curate add auth/jwt --title "Token rotation" --content "Refresh tokens are single-use."
      brv curate delete legacy --reason "the service is gone" --dry-run
    """
    if ctx.invoked_subcommand is not None:
        if ops_file is not None:
            raise UsageError(
                f"--ops and the subcommand '{ctx.invoked_subcommand}' cannot be combined",
                hint=f"run 'brv curate --ops FILE' alone, or 'brv curate {ctx.invoked_subcommand}"
                " ...' alone",
            )
        return  # the shortcut reads --atomic, --dry-run and --json from this context
    if ops_file is None:
        raise UsageError(
            "give operations with --ops FILE (or '-' for stdin), or use a subcommand",
            hint="run 'brv curate --help' to see add, update, upsert, delete and merge",
        )
    name = "<stdin>" if ops_file == "-" else ops_file
    ops = load_ops(read_source(ops_file, "operations"), file=name)
    _finish(app, ops, atomic, as_json, dry_run)


def _group_flags(opts: dict[str, Any]) -> tuple[bool, bool, bool]:
    """(atomic, dry_run, as_json): a shortcut's own flags or the group's, given before it."""
    parent = click.get_current_context().parent
    group = parent.params if parent is not None else {}
    return (
        bool(group.get("atomic")),
        bool(opts.get("dry_run") or group.get("dry_run")),
        bool(opts.get("as_json") or group.get("as_json")),
    )


def _shortcut(app: AppContext, op: dict[str, Any], opts: dict[str, Any]) -> None:
    check_shortcut(op, opts)
    atomic, dry_run, as_json = _group_flags(opts)
    _finish(app, [op], atomic, as_json, dry_run)


@curate.command("add")
@click.argument("folder")
@content_options
@pass_app
def add(app: AppContext, /, folder: str, **opts: Any) -> None:
    """Add a new entry to DOMAIN/TOPIC[/SUBTOPIC] (fails if it exists).

    It needs --title and content (--content or --file).

    \b
    Example:
      brv curate add auth/jwt --title "Token rotation" --content "Single-use refresh tokens." \\
        --tags auth,jwt --reason "decided in PR 12"
      brv curate add ops/ci --title "Pipeline" --file pipeline.md --dry-run
    """
    if not opts.get("title"):
        raise UsageError("brv curate add needs --title", hint='add --title "..."')
    _shortcut(app, build_op("ADD", folder, opts), opts)


@curate.command("update")
@click.argument("entry")
@content_options
@pass_app
def update(app: AppContext, /, entry: str, **opts: Any) -> None:
    """Update an existing entry (ENTRY_PATH, or a folder with --title); unmentioned sections stay.

    Give at least one thing to change (--content, --file, --title, --summary, --tags,
    --keywords, --related); empty content is refused.

    \b
    Example:
      brv curate update auth/jwt/token_rotation.md --content "Rotation is now weekly."
    """
    _shortcut(app, build_op("UPDATE", entry, opts), opts)


@curate.command("upsert")
@click.argument("path")
@content_options
@pass_app
def upsert(app: AppContext, /, path: str, **opts: Any) -> None:
    """Add the entry if it is new, update it if it exists.

    \b
    Example:
      brv curate upsert auth/jwt --title "Token rotation" --content "Single-use refresh tokens."
    """
    _shortcut(app, build_op("UPSERT", path, opts), opts)


@curate.command("delete")
@click.argument("path")
@click.option("--title", help="Entry title inside the folder PATH.")
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@dry_run_option
@json_option
@pass_app
def delete(app: AppContext, /, path: str, **opts: Any) -> None:
    """Delete an entry, or a whole domain/topic/subtopic folder.

    \b
    Example:
      brv curate delete auth/jwt/old_flow.md --reason "superseded by token_rotation"
      brv curate delete legacy --reason "the legacy service is gone" --dry-run
    """
    _shortcut(app, build_op("DELETE", path, opts), opts)


@curate.command("merge")
@click.argument("source")
@click.option(
    "--into", "target", required=True, metavar="TARGET", help="Entry that receives SOURCE."
)
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@dry_run_option
@json_option
@pass_app
def merge(app: AppContext, /, source: str, target: str, **opts: Any) -> None:
    """Merge SOURCE into TARGET section by section, then delete SOURCE.

    \b
    Example:
      brv curate merge auth/jwt/rotation_notes.md --into auth/jwt/token_rotation.md \\
        --reason "duplicates"
    """
    op = build_op("MERGE", source, opts)
    op["target"] = target
    _shortcut(app, op, opts)
