"""``brv brain``: the project document an agent loads at the start of a session."""

from __future__ import annotations

import json
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.plain import versioned


def brain_payload(result: Any) -> dict[str, Any]:
    """The ``--json`` answer (seed 004's response names); also the MCP tool's answer."""
    if result.not_modified:
        return {"ok": True, "notModified": True, "brainHash": result.brain_hash}
    l0, l1, l2 = result.layers
    return {
        "ok": True, "notModified": False, "brainHash": result.brain_hash,
        "document": result.document, "tokenEstimate": result.token_estimate,
        "budget": result.budget, "itemsLoaded": result.items_loaded,
        "layers": {"brief": l0, "active": l1, "reference": l2},
        "entries": result.entries, "leftToSearch": result.left_to_search,
        "paths": list(result.paths), "stale": list(result.stale),
    }


@click.command("brain")
@click.option("--budget", type=int, default=6000, show_default=True,
              help="Token budget of the whole document (layers get 500/1,500/2,000 of 6,000).")
@click.option("--if-none-match", "if_none_match", metavar="HASH",
              help="A brainHash from an earlier call: answer 'not modified' if it still holds.")
@json_option
@pass_app
def brain(app: AppContext, budget: int, if_none_match: str | None, as_json: bool) -> None:
    """Print the project brain: brief, active and reference knowledge within a token budget.

    Built from the tree's own signals (importance, recency, maturity, tags), no LLM. The
    rest of the tree is left to search; the footer says how many entries that is.

    \b
    Example:
      brv brain
      brv brain --budget 3000 --json
      brv brain --if-none-match 3f2a9c1d0b7e4a55 --json
    """
    from brv_vc.services.brain import assemble

    result = assemble(app.project(), app.now, budget=budget, if_none_match=if_none_match)
    if as_json:
        click.echo(json.dumps(versioned(brain_payload(result)), indent=2, ensure_ascii=False))
    elif result.not_modified:
        click.echo(f"not modified ({result.brain_hash})")
    else:
        click.echo(result.document, nl=False)
