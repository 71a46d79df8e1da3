"""``brv manifest``."""

from __future__ import annotations

import json

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.services.derived import show_manifest
from brv_vc.summary.manifest import ManifestResult


def _text(r: ManifestResult) -> str:
    m = r.manifest
    lines = []
    for lane in ("summaries", "contexts", "stubs"):
        rows = m.get(lane, [])
        lines.append(
            f"{lane}: {len(rows)} files, {m['totals'][lane]}/{m['budgets'][lane]} tokens"
            f" ({m['omitted'][lane]} left out)"
        )
        for row in rows:
            extra = f"  importance {row['importance']}" if "importance" in row else ""
            lines.append(f"  {row.get('read', row['path'])}  {row['tokens']} tokens{extra}")
    return "\n".join(lines)


@click.command()
@click.option("--rebuild", is_flag=True, help="Rebuild even when the manifest is fresh.")
@json_option
@pass_app
def manifest_cmd(app: AppContext, rebuild: bool, as_json: bool) -> None:
    """Print _manifest.json: summaries, contexts and stubs in token-budgeted lanes.

    The manifest is rebuilt first when it is stale (the tree changed since it was built),
    missing, or edited by hand.

    \b
    Example:
      brv manifest
      brv manifest --json
    """
    result = show_manifest(app.project(), app.now, rebuild=rebuild)
    for message in result.warnings:
        warn(message)
    if as_json:
        click.echo(json.dumps({"ok": True, "rebuilt": result.rebuilt, **result.manifest},
                              indent=2, ensure_ascii=False))
        return
    emit(result, False, _text)
