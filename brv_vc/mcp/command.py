"""``brv mcp``: registered by name in ``cli/main.py`` (the MCP face sits beside the CLI)."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, pass_app


@click.command("mcp")
@pass_app
def mcp(app: AppContext) -> None:
    """Run the MCP server on stdio for coding agents (Claude Code, Cursor, Codex, ...).

    Tools: brv-search, brv-query, brv-curate, brv-show, brv-brain, brv-hydrate,
    brv-dehydrate, brv-vc-status, brv-vc-diff. Resources: brv://brain, brv://manifest.
    Each tool takes an optional cwd; without it the server answers for the folder it was
    started in (or -C PATH).

    \b
    Example:
      brv mcp
      claude mcp add brv -- brv mcp
    """
    import os
    import sys

    from brv_vc.cli.inert import raw_stream
    from brv_vc.clock import utcnow
    from brv_vc.mcp.server import serve

    fixed = app.now
    # the wire is JSON-RPC for a program, not a terminal: the SDK writes its bytes itself
    sys.stdout, sys.stderr = raw_stream(sys.stdout), raw_stream(sys.stderr)
    # BRV_NOW fixes the clock for reproducible runs, as in every other command
    serve(app.cwd, (lambda: fixed) if os.environ.get("BRV_NOW") else utcnow)
