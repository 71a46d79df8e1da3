"""What several ``brv vc`` command groups share: the repository, the sync report, two options."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import click

from brv_vc.cli.context import AppContext
from brv_vc.cli.plain import versioned
from brv_vc.cli.render import emit, jsonable
from brv_vc.cli.vc import render as txt
from brv_vc.services import vc

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from brv_vc.services.vc import ResolveResult, RoundTrip, SyncResult
    from brv_vc.vc.repo import KnowledgeRepo


no_hooks_option = click.option(
    "--no-hooks", is_flag=True,
    help="Do not install brv's git hooks (install them later with 'brv hooks install').")

unrelated_option = click.option(
    "--allow-unrelated-histories", "allow_unrelated", is_flag=True,
    help="Join two histories with no commit in common (e.g. two separate 'brv vc init').")


def repo_of(app: AppContext) -> KnowledgeRepo:
    """The project's knowledge repository, its git configuration brought up to date."""
    return vc.prepare(app.project())


def emit_sync(result: SyncResult | RoundTrip | ResolveResult, as_json: bool,
              text: Callable[[Any], str] = txt.sync_text) -> None:
    """Prints a pull/merge/sync/resolve result; conflicts give ``"ok": false`` and exit 1 (as git does)."""
    if as_json and result.conflicts:
        click.echo(json.dumps(versioned({"ok": False, **jsonable(result)}), indent=2,
                              ensure_ascii=False))
    else:
        emit(result, as_json, text)
    if result.conflicts:
        raise click.exceptions.Exit(1)
