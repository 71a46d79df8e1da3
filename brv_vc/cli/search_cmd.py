"""``brv search``."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.cli.retrieval_text import search_text
from brv_vc.services.query import MAX_LIMIT


@click.command()
@click.argument("query")
@click.option("--limit", "-n", type=int, default=10, show_default=True, help=f"Results (1-{MAX_LIMIT}).")
@click.option("--scope", metavar="PREFIX", help="Only entries under this tree path.")
@click.option(
    "--no-record",
    "no_record",
    is_flag=True,
    help="Only look: do not count the results as hits (no importance change, nothing written).",
)
@json_option
@pass_app
def search(
    app: AppContext, query: str, limit: int, scope: str | None, no_record: bool, as_json: bool
) -> None:
    """Search the context tree (BM25 + prefix + fuzzy, no LLM).

    Results are ranked by relevance (any query word may match; entries holding more of the
    question rank higher), with importance, recency and maturity breaking near-ties; each
    comes with its best excerpt and the entries that link to it.

    \b
    Example:
      brv search "why did we drop redis for sessions"
      brv search jwt --scope auth --limit 5 --no-record --json
    """
    from brv_vc.services.query import search_tree

    result = search_tree(
        app.project(), query, now=app.now, limit=limit, scope=scope, record=not no_record
    )
    for note in result.notes:
        warn(note)
    emit(result, as_json, search_text)
