"""``brv query``."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.cli.retrieval_text import query_text
from brv_vc.services.query import MAX_ITERATIONS


@click.command()
@click.argument("question")
@click.option(
    "--max-iterations", type=click.IntRange(1, MAX_ITERATIONS), default=10, show_default=True,
    help="Bound on LLM calls in tier 4 (the agentic loop).",
)
@json_option
@pass_app
def query(app: AppContext, question: str, max_iterations: int, as_json: bool) -> None:
    """Answer a question from the context tree (5 tiers: cache, search, LLM).

    Tiers 0-2 never call an LLM; tiers 3-4 need an llm: provider in .brv/config.yaml.
    The answer says which tier answered, how long it took and the top search score.

    \b
    Example:
      brv query "how are refresh tokens rotated?"
      brv query "where do we keep secrets?" --json
    """
    from brv_vc.services.query import query_tree

    result = query_tree(app.project(), question, now=app.now, max_iterations=max_iterations)
    for note in result.notes:
        warn(note)
    if result.error:
        warn(result.error)
    emit(result, as_json, query_text)
