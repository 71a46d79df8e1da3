"""``brv archive`` and ``brv restore``."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.errors import UsageError
from brv_vc.services.derived import (
    ArchiveResult,
    CandidatesResult,
    archive,
    list_candidates,
    restore,
)


def _archived(r: ArchiveResult) -> str:
    rec = r.record
    return (
        f"archived {rec.original_path} (importance {rec.evicted_importance})\n"
        f"  stub: {rec.stub_path}\n  full: {rec.full_path}\n"
        f"restore with: brv restore {rec.original_path}"
    )


def _candidates(r: CandidatesResult) -> str:
    if not r.candidates:
        return "no archive candidates (draft entries with decayed importance below 35)"
    lines = [f"{c.importance:5.1f}  {c.path}  ({c.signals})" for c in r.candidates]
    return "\n".join([*lines, "archive one with: brv archive PATH"])


@click.command()
@click.argument("path", required=False)
@click.option("--candidates", "show_candidates", is_flag=True,
              help="List entries that qualify (draft, decayed importance below 35).")
@json_option
@pass_app
def archive_cmd(app: AppContext, path: str | None, show_candidates: bool, as_json: bool) -> None:
    """Archive an entry: a searchable stub and a lossless copy replace it.

    The stub (_archived/<path>.stub.md) stays searchable; the full copy keeps the original
    bytes. 'brv restore PATH' brings the entry back exactly.

    \b
    Example:
      brv archive --candidates
      brv archive auth/jwt/old_draft.md
    """
    if show_candidates == bool(path):
        raise UsageError(
            "give either an entry PATH or --candidates",
            hint="brv archive auth/jwt/old_draft.md, or brv archive --candidates",
        )
    if show_candidates:
        emit(list_candidates(app.project(), app.now), as_json, _candidates)
        return
    assert path is not None
    result = archive(app.project(), path, app.now)
    for problem in result.problems:
        warn(problem)
    emit(result, as_json, _archived)


@click.command()
@click.argument("path")
@json_option
@pass_app
def restore_cmd(app: AppContext, path: str, as_json: bool) -> None:
    """Restore an archived entry byte for byte (its scoring signals start again at defaults).

    PATH is the entry's original path (or its stub path).

    \b
    Example:
      brv restore auth/jwt/old_draft.md
    """
    result = restore(app.project(), path, app.now)
    for problem in result.problems:
        warn(problem)
    emit(result, as_json, lambda r: f"restored {r.record.original_path}")
