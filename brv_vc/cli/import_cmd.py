"""``brv import``: bring a folder of markdown notes in as entries."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, stderr_is_tty, warn
from brv_vc.errors import BrvError

LONG_IMPORT = 500  # notes: from here a progress bar is drawn (on a terminal)


class ImportFailed(BrvError):
    """Some notes could not be placed, or the batch failed: nothing was imported."""

    code = "import_failed"


def _text(r: Any) -> str:
    verb = "would import" if r.dry_run else "imported"
    lines = [f"{verb} {len(r.imported)} of {r.found} notes from {r.source} ({r.flavour})"]
    lines += [f"  {i.source} -> {i.path}" for i in r.imported[:50]]
    if len(r.imported) > 50:
        lines.append(f"  ... and {len(r.imported) - 50} more (--json lists all)")
    kept = sum(len(i.related) for i in r.imported)
    lines.append(f"links: {kept} kept as related, {len(r.unresolved)} unresolved"
                 + (" (name no note or entry; --json lists them)" if r.unresolved else ""))
    lines += [f"  {u.source}: [[{u.link}]]" for u in r.unresolved[:10]]
    if len(r.unresolved) > 10:
        lines.append(f"  ... and {len(r.unresolved) - 10} more")
    if r.links:
        lines.append(f"skipped {len(r.links)} symbolic link(s): brv never follows a link in an "
                     "import (copy the notes in to import them)")
        lines += [f"  {link}" for link in r.links[:50]]
        if len(r.links) > 50:
            lines.append(f"  ... and {len(r.links) - 50} more (--json lists all)")
    return "\n".join(lines)


@click.command("import")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--from", "flavour", default="markdown", show_default=True,
              type=click.Choice(["markdown", "basic-memory", "obsidian", "byterover"]),
              help="The tool the notes come from (how tags, links and dates are read).")
@click.option("--dry-run", is_flag=True, help="Plan and validate, write nothing.")
@json_option
@pass_app
def import_cmd(app: AppContext, folder: Path, flavour: str, dry_run: bool,
               as_json: bool) -> None:
    """Import a folder of markdown notes (basic-memory, Obsidian, ByteRover, plain).

    Folders become domain/topic[/subtopic]; titles, tags, dates, permalinks and
    [[wiki-links]] are kept (links become 'related'). Everything goes in as one atomic
    curate batch: notes that cannot be placed or parsed are listed with the reason, and
    then nothing is imported.

    \b
    Example:
      brv import ~/notes --from obsidian --dry-run
      brv import ./basic-memory --from basic-memory --json
    """
    from brv_vc.services.importers import import_notes

    if stderr_is_tty():
        bar_of: Any = click.progressbar  # its overloads want an iterable; a length is enough
        with bar_of(length=1, label="Reading notes", file=sys.stderr) as bar:

            def step(done: int, total: int) -> None:
                if total >= LONG_IMPORT:
                    bar.length = total
                    bar.update(done - bar.pos)

            result = import_notes(app.project(), folder, app.now, flavour=flavour,
                                  dry_run=dry_run, progress=step)
    else:
        result = import_notes(app.project(), folder, app.now, flavour=flavour,
                              dry_run=dry_run)
    for item in result.skipped:
        warn(f"{item.source}: {item.reason}")
    if result.skipped and not dry_run:
        raise ImportFailed(f"{len(result.skipped)} of {result.found} notes cannot be imported, "
                           "so none was", file=result.skipped[0].source,
                           hint="fix or move the notes listed above, or check with --dry-run")
    if result.curate is not None and not result.curate.ok:
        failed = next(op for op in result.curate.applied if op.status == "failed")
        raise ImportFailed(f"the import batch failed at {failed.path}: {failed.message}; "
                           "nothing was imported", file=failed.file or failed.path,
                           hint=failed.hint or "fix that note and import again")
    emit(result, as_json, _text)
