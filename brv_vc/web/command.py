"""``brv ui``: registered by name in ``cli/main.py`` (the web face sits beside the CLI and MCP)."""

from __future__ import annotations

import click

from brv_vc import environment
from brv_vc.cli.context import AppContext, json_option, pass_app


def _missing() -> bool:
    import importlib.util

    try:
        return any(importlib.util.find_spec(name) is None for name in ("starlette", "uvicorn",
                                                                    "markdown_it"))
    except (ImportError, ValueError):  # blocked, or a broken half-installed package
        return True


@click.command("ui")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: a free one).")
@click.option("--no-open", "no_open", is_flag=True, help="Do not open a browser; only print the URL.")
@json_option
@pass_app
def ui(app: AppContext, port: int, no_open: bool, as_json: bool) -> None:
    """Browse, search and review the knowledge in a local web page.

    Serves the tree, entries (with backlinks and git history), search as you type, the
    review queue (approve / reject), dream logs (undo) and the changes under git, on
    127.0.0.1 only, behind a random token carried by the printed URL. Runs until Ctrl-C.
    It needs starlette and uvicorn (the extra: pip install 'brv-vc[ui]').

    \b
    Example:
      brv ui
      brv ui --port 8765 --no-open
    """
    import json
    import secrets
    import sys

    from brv_vc.cli.inert import inert, raw_stream
    from brv_vc.errors import StateError

    if _missing():
        raise StateError("brv ui needs starlette, uvicorn and markdown-it-py, which are not "
                         "all installed",
                         hint="install the extra: pip install 'brv-vc[ui]' (from a checkout: "
                              "'.[ui]')")
    from brv_vc.web import app as web_app
    from brv_vc.web import server

    project = app.project()
    token = secrets.token_urlsafe(24)
    sock = server.bind(port)
    url = server.url_of(sock, token)
    # the URL carries this run's own token, which the user needs: written under the boundary
    # that masks credentials in everything else brv prints (cli/inert.py, brv_vc.scrub)
    out = raw_stream(sys.stdout)
    if as_json:
        click.echo(json.dumps({"ok": True, "version": 1, "url": url,
                               "port": sock.getsockname()[1]}), file=out)
    else:
        click.echo(f"brv ui: serving {inert(str(project.root))} at {url}", file=out)
        click.echo("brv ui: press Ctrl-C to stop", err=True)
    out.flush()  # a program reading the URL from a pipe gets it now, not at exit
    if not no_open:
        import webbrowser

        webbrowser.open(url)
    fixed = app.now

    clock = (lambda: fixed) if environment.now_text() else None
    try:
        server.serve(web_app(project, token, clock), sock)
    finally:
        sock.close()
