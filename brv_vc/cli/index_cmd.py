"""``brv index``."""

from __future__ import annotations

import sys
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.inert import raw_stream
from brv_vc.cli.render import emit, warn
from brv_vc.cli.retrieval_text import index_text


def _shown(result: Any, verbose: bool) -> dict[str, Any]:
    """The JSON document: counts; the added/updated/removed paths only with --verbose."""
    from brv_vc.cli.plain import jsonable

    shown: dict[str, Any] = {
        "mode": result.mode,
        "files": result.files,
        "counts": {"added": len(result.added), "updated": len(result.updated),
                   "removed": len(result.removed)},
        "problems": jsonable(result.problems),
        "notes": list(result.notes),
        "misplaced": jsonable(result.misplaced),
    }
    if verbose:
        shown.update(added=list(result.added), updated=list(result.updated),
                     removed=list(result.removed))
    return shown


def _verbose_text(result: Any) -> str:
    lines = [index_text(result)]
    for action in ("added", "updated", "removed"):
        lines += [f"{action:<8} {path}" for path in getattr(result, action)]
    return "\n".join(lines)


@click.command()
@click.option("--rebuild", is_flag=True, help="Drop the index and build it again from the tree.")
@click.option("--verbose", "-v", is_flag=True, help="List every added, updated, removed path.")
@click.option("--embed", is_flag=True,
              help="Also embed every entry the semantic lane has no vector for yet "
                   "(needs an embeddings: model; docs/semantic.md).")
@json_option
@pass_app
def index(app: AppContext, rebuild: bool, verbose: bool, embed: bool, as_json: bool) -> None:
    """Bring the search index (.brv/state/index.db) up to date with the tree.

    Every command that reads the index does this cheaply by itself; run it after large
    edits by hand or to see which files fail to parse. The index is derived: --rebuild
    never touches the scoring signals in brv.db. Output gives counts; files that fail to
    parse or sit outside the layout are always listed, the others with --verbose.

    \b
    Example:
      brv index
      brv index --rebuild --json
      brv index --verbose --json
      brv index --embed
    """
    from brv_vc.cli.render import stderr_is_tty
    from brv_vc.services.derived import index_project

    if not stderr_is_tty():
        result = index_project(app.project(), rebuild=rebuild, now=app.now)
    else:
        bar_of: Any = click.progressbar  # its overloads want an iterable; a length is enough
        with bar_of(length=1, label="Indexing", file=raw_stream(sys.stderr)) as bar:

            def step(done: int, total: int) -> None:
                bar.length = max(total, 1)
                bar.update(done - bar.pos)

            result = index_project(app.project(), rebuild=rebuild, now=app.now, progress=step)
    for note in result.notes:
        warn(note)
    if result.problems:
        # the same rule as `brv summarize` (docs/derived.md): the rest is indexed, exit 0
        warn(f"{len(result.problems)} file(s) could not be parsed and are not searchable; "
             "fix them and run 'brv index' again")
    embedded = _embed(app) if embed else None
    if as_json:
        shown = _shown(result, verbose)
        if embedded is not None:
            shown["embedded"] = embedded._asdict()
        emit(shown, True, index_text)
    else:
        emit(result, False, _verbose_text if verbose else index_text)
        if embedded is not None:
            click.echo(f"Embedded {embedded.embedded} of {embedded.entries} entries with "
                       f"{embedded.model}.")


def _embed(app: AppContext) -> Any:
    """``--embed``: every entry without a vector, with a progress bar on a terminal."""
    from brv_vc.cli.render import stderr_is_tty
    from brv_vc.services.semantic import embed_tree

    if not stderr_is_tty():
        return embed_tree(app.project())
    bar_of: Any = click.progressbar
    with bar_of(length=1, label="Embedding", file=raw_stream(sys.stderr)) as bar:

        def step(done: int, total: int) -> None:
            bar.length = max(total, 1)
            bar.update(done - bar.pos)

        return embed_tree(app.project(), progress=step)
