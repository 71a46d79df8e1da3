"""``brv export``: the tree's digest in CLAUDE.md, AGENTS.md or a Cursor rule."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.errors import BrvError, UsageError


class StaleExport(BrvError):
    """``--check`` found the managed block out of date (exit 1)."""

    code = "stale"


@click.command("export")
@click.argument("target", type=click.Choice(["claude-md", "agents-md", "cursor"]))
@click.option("--budget", type=int, default=1000, show_default=True,
              help="Token budget of the managed block.")
@click.option("--check", is_flag=True,
              help="Change nothing; exit 1 when the block is stale (for CI and hooks).")
@json_option
@pass_app
def export_cmd(app: AppContext, target: str, budget: int, check: bool, as_json: bool) -> None:
    """Write a ~1,000-token digest of the tree into an agent's instruction file.

    The digest sits between brv:begin and brv:end markers in CLAUDE.md (claude-md),
    AGENTS.md (agents-md) or .cursor/rules/brv.mdc (cursor); your own text around it is
    kept byte for byte, and running it twice changes nothing.

    \b
    Example:
      brv export claude-md
      brv export agents-md --check
    """
    from brv_vc.services.brain import export

    if budget < 200:
        raise UsageError(f"--budget {budget} is too small", hint="give at least 200 tokens")
    result = export(app.project(), target, budget=budget, check=check)
    if result.stale:
        raise StaleExport(f"{result.file} is stale: the tree changed since the last export",
                          file=result.file, hint=f"run: brv export {target}")
    emit(result, as_json, lambda r: (
        f"{r.file}: {'written' if r.changed else 'up to date'} ({r.tokens} tokens)"))
