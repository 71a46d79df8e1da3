"""``brv init``."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.services.init import InitResult, init_project, init_root_for


@click.command()
@json_option
@pass_app
def init(app: AppContext, as_json: bool) -> None:
    """Create .brv/ (settings, context tree, state) in the project root.

    Safe to run again: nothing that exists is changed. Run inside a git repository, it
    initialises at the repository's top folder.

    \b
    Example:
      brv init
    """
    result = init_project(init_root_for(app.cwd))

    def text(r: InitResult) -> str:
        if not r.created:
            return f"brv project already initialised in {r.root}/.brv"
        return f"Initialised brv project in {r.root}/.brv\n" + "\n".join(
            f"  created {p}" for p in r.created_paths
        )

    emit(result, as_json, text)
