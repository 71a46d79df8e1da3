"""``brv mcp``: registered by name in ``cli/main.py`` (the MCP face sits beside the CLI)."""

from __future__ import annotations

import click

from brv_vc import environment
from brv_vc.cli.context import AppContext, pass_app


@click.command("mcp")
@click.option("--print-config", "client", is_flag=False, flag_value="claude", default=None,
              type=click.Choice(["claude", "cursor", "vscode"]),
              help="Print the client config (claude: .mcp.json, cursor: .cursor/mcp.json, "
                   "vscode: .vscode/mcp.json) that starts this brv by its absolute "
                   "interpreter path (no PATH needed), and exit.")
@pass_app
def mcp(app: AppContext, client: str | None) -> None:
    """Run the MCP server on stdio for coding agents (Claude Code, Cursor, Codex, ...).

    Tools: brv-search, brv-query, brv-curate, brv-show, brv-about, brv-stale, brv-brain,
    brv-hydrate, brv-dehydrate, brv-vc-status, brv-vc-diff. Resources: brv://brain, brv://manifest.
    Each tool takes an optional cwd; without it the server answers for the folder it was
    started in (or -C PATH).

    It needs the MCP SDK (the extra: pip install 'brv-vc[mcp]'); brv says so when missing.

    \b
    Example:
      brv mcp
      brv mcp --print-config claude > .mcp.json
      brv mcp --print-config vscode
    """
    import sys

    from brv_vc.mcp import client_config as cc

    if client is not None:
        import json

        from brv_vc.tree.project import find_project

        try:
            project = find_project(app.cwd).root
        except Exception:  # no project here yet: the server serves the folder it starts in
            project = None
        click.echo(json.dumps(cc.client_config(client, project), indent=2))
        click.echo(f"brv: write this to {cc.FILES[client]} in the project", err=True)
        if cc.sdk_missing():
            click.echo(f"brv: warning: the MCP SDK is not installed; first run: "
                       f"{cc.install_hint()}", err=True)
        return
    if cc.sdk_missing():
        from brv_vc.errors import StateError

        raise StateError("brv mcp needs the MCP SDK, which is not installed with this brv",
                         hint=f"install the extra: {cc.install_hint()}")
    from brv_vc.cli.inert import raw_stream
    from brv_vc.clock import utcnow
    from brv_vc.mcp.server import serve

    fixed = app.now
    # the wire is JSON-RPC for a program, not a terminal: the SDK writes its bytes itself
    sys.stdout, sys.stderr = raw_stream(sys.stdout), raw_stream(sys.stderr)
    # BRV_NOW fixes the clock for reproducible runs, as in every other command
    serve(app.cwd, (lambda: fixed) if environment.now_text() else utcnow)
