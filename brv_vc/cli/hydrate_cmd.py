"""``brv hydrate``, ``brv dehydrate`` and ``brv stats`` (seed 003)."""

from __future__ import annotations

import sys
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit


@click.command()
@click.argument("path", default="")
@click.option("--budget", type=int, default=4000, show_default=True,
              help="Token limit of the hydrated context.")
@json_option
@pass_app
def hydrate(app: AppContext, path: str, budget: int, as_json: bool) -> None:
    """Print the context a node needs: global brief, parent intent, local entries.

    PATH is a folder (domain, domain/topic or domain/topic/subtopic; empty for the root).
    The least important parts are dropped first when the budget is tight; a child folder
    with a digest (brv dehydrate) stands in for its raw entries.

    \b
    Example:
      brv hydrate auth/jwt
      brv hydrate auth --budget 2000 --json
    """
    from brv_vc.services.hydrate import hydrate as run

    result = run(app.project(), path, app.now, budget=budget)
    emit(result, as_json, lambda r: r.document.rstrip("\n"))


@click.command()
@click.argument("path")
@click.option("--digest", "digest", required=True, metavar="TEXT|-",
              help="The node's digest; '-' reads it from standard input.")
@json_option
@pass_app
def dehydrate(app: AppContext, path: str, digest: str, as_json: bool) -> None:
    """Store a digest of a node that its parents' hydration uses instead of raw children.

    The digest is the '## Digest' section of the folder's context.md: knowledge, versioned
    with the tree, so a teammate's hydration sees it after a pull.

    \b
    Example:
      brv dehydrate auth/jwt --digest "JWT with 1 h expiry; refresh tokens single-use."
      echo "OAuth2 via Auth0; routes /auth/login, /auth/refresh" | brv dehydrate auth --digest -
    """
    from brv_vc.services.hydrate import dehydrate as run

    text = sys.stdin.read() if digest == "-" else digest
    result = run(app.project(), path, text, app.now)
    emit(result, as_json, lambda r: (
        f"{'Stored' if r.changed else 'Unchanged'}: digest of {r.path} in {r.file} "
        f"({r.tokens} tokens)"))


def _stats_text(r: Any) -> str:
    lines = [f"{r.total_nodes} nodes, {r.total_tokens} tokens, {r.avg_tokens_per_node:.0f} a "
             f"node on average; {r.nodes_over_limit} over the limit of {r.limit}"]
    if r.largest:
        lines.append("Largest nodes:")
        lines += [f"  {n.path or '(root)'}  {n.tokens} tokens in {n.entries} entries"
                  + ("  OVER LIMIT" if n.over_limit else "") for n in r.largest]
    return "\n".join(lines)


@click.command()
@click.option("--limit", type=click.IntRange(min=1), default=8192, show_default=True,
              help="Token limit of one node.")
@click.option("--top", type=click.IntRange(min=0), default=10, show_default=True,
              help="How many of the largest nodes to list.")
@json_option
@pass_app
def stats(app: AppContext, limit: int, top: int, as_json: bool) -> None:
    """Print token hygiene: tokens per node, the average, nodes over their limit.

    \b
    Example:
      brv stats
      brv stats --limit 4096 --json
    """
    from brv_vc.services.hydrate import tree_stats

    emit(tree_stats(app.project(), limit=limit, top=top), as_json, _stats_text)
