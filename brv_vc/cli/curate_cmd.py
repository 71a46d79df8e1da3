"""``brv curate``: apply curate operations from a JSON batch or one shortcut subcommand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.errors import FormatError, UsageError
from brv_vc.format.entry import decode
from brv_vc.services.curate import CurateResult, load_ops, run_batch, validate_ops


def _read_source(source: str, what: str) -> bytes:
    if source == "-":
        return (
            sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode()
        )
    try:
        return Path(source).read_bytes()
    except FileNotFoundError:
        raise FormatError(f"{what} file '{source}' does not exist", file=source) from None
    except IsADirectoryError:
        raise FormatError(f"{what} file '{source}' is a folder", file=source) from None


def _text(result: CurateResult) -> str:
    lines = []
    for r in result.applied:
        if r.status == "success":
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
    order and each one succeeds or fails on its own. Exit code 1 when any failed. See
    docs/curate.md for the operation format.

    \b
    Example:
      brv curate --ops ops.json --json
      echo '[{"type":"ADD","path":"auth/jwt","title":"Token rotation",
              "content":"Single-use.","reason":"from PR 12"}]' | brv curate --ops -
      brv curate add auth/jwt --title "Token rotation" --content "Refresh tokens are single-use."
    """
    if ctx.invoked_subcommand is not None:
        return
    if ops_file is None:
        raise UsageError(
            "give operations with --ops FILE (or '-' for stdin), or use a subcommand",
            hint="run 'brv curate --help' to see add, update, upsert, delete and merge",
        )
    name = "<stdin>" if ops_file == "-" else ops_file
    ops = load_ops(_read_source(ops_file, "operations"), file=name)
    _finish(app, ops, atomic, as_json, dry_run)


def _content_options(func: Any) -> Any:
    options = [
        click.option("--title", help="Entry title (the file is named after it)."),
        click.option("--content", help="Markdown content ('## ' sections make it the whole body)."),
        click.option(
            "--file", "content_file", metavar="FILE|-", help="Read the content from FILE."
        ),
        click.option("--summary", help="One-line summary."),
        click.option("--tags", help="Comma-separated tags."),
        click.option("--keywords", help="Comma-separated search keywords."),
        click.option("--related", help="Comma-separated related paths (domain/topic/entry.md)."),
        click.option("--reason", help="Why (kept in the audit log)."),
        json_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _split(value: str | None) -> list[str]:
    return [part.strip() for part in (value or "").split(",") if part.strip()]


def _op(kind: str, path: str, opts: dict[str, Any]) -> dict[str, Any]:
    op: dict[str, Any] = {
        "type": kind,
        "path": path,
        "reason": opts.get("reason") or f"{kind.lower()} with brv curate {kind.lower()}",
    }
    if opts.get("content") is not None and opts.get("content_file"):
        raise UsageError("give --content or --file, not both")
    if opts.get("content_file"):
        source = opts["content_file"]
        op["content"] = decode(_read_source(source, "content"), file=source)
    elif opts.get("content") is not None:
        op["content"] = opts["content"]
    for name in ("title", "summary"):
        if opts.get(name) is not None:
            op[name] = opts[name]
    for name in ("tags", "keywords", "related"):
        if opts.get(name) is not None:
            op[name] = _split(opts[name])
    return op


def _wants_json(opts: dict[str, Any]) -> bool:
    """``--json`` after the subcommand or before it (``brv curate --json add ...``)."""
    parent = click.get_current_context().parent
    return bool(opts.get("as_json") or (parent is not None and parent.params.get("as_json")))


def _shortcut(app: AppContext, kind: str, path: str, opts: dict[str, Any]) -> None:
    op = _op(kind, path, opts)
    validate_ops([op], file=f"brv curate {kind.lower()}")
    _finish(app, [op], False, _wants_json(opts))


@curate.command("add")
@click.argument("folder")
@_content_options
@pass_app
def add(app: AppContext, /, folder: str, **opts: Any) -> None:
    """Add a new entry to DOMAIN/TOPIC[/SUBTOPIC] (fails if it exists).

    \b
    Example:
      brv curate add auth/jwt --title "Token rotation" --content "Single-use refresh tokens." \\
        --tags auth,jwt --reason "decided in PR 12"
    """
    if not opts.get("title"):
        raise UsageError("brv curate add needs --title", hint='add --title "..."')
    _shortcut(app, "ADD", folder, opts)


@curate.command("update")
@click.argument("entry")
@_content_options
@pass_app
def update(app: AppContext, /, entry: str, **opts: Any) -> None:
    """Update an existing entry (ENTRY_PATH, or a folder with --title); unmentioned sections stay.

    \b
    Example:
      brv curate update auth/jwt/token_rotation.md --content "Rotation is now weekly."
    """
    _shortcut(app, "UPDATE", entry, opts)


@curate.command("upsert")
@click.argument("path")
@_content_options
@pass_app
def upsert(app: AppContext, /, path: str, **opts: Any) -> None:
    """Add the entry if it is new, update it if it exists.

    \b
    Example:
      brv curate upsert auth/jwt --title "Token rotation" --content "Single-use refresh tokens."
    """
    _shortcut(app, "UPSERT", path, opts)


@curate.command("delete")
@click.argument("path")
@click.option("--title", help="Entry title inside the folder PATH.")
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@json_option
@pass_app
def delete(app: AppContext, /, path: str, **opts: Any) -> None:
    """Delete an entry, or a whole domain/topic/subtopic folder.

    \b
    Example:
      brv curate delete auth/jwt/old_flow.md --reason "superseded by token_rotation"
      brv curate delete legacy --reason "the legacy service is gone"
    """
    _shortcut(app, "DELETE", path, opts)


@curate.command("merge")
@click.argument("source")
@click.option(
    "--into", "target", required=True, metavar="TARGET", help="Entry that receives SOURCE."
)
@click.option("--reason", required=True, help="Why (kept in the audit log).")
@json_option
@pass_app
def merge(app: AppContext, /, source: str, target: str, **opts: Any) -> None:
    """Merge SOURCE into TARGET section by section, then delete SOURCE.

    \b
    Example:
      brv curate merge auth/jwt/rotation_notes.md --into auth/jwt/token_rotation.md \\
        --reason "duplicates"
    """
    op = _op("MERGE", source, opts)
    op["target"] = target
    validate_ops([op], file="brv curate merge")
    _finish(app, [op], False, _wants_json(opts))
