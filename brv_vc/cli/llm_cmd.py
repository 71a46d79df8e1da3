"""``brv llm approve``: trust the project's LLM provider settings on this machine."""

from __future__ import annotations

from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit


@click.group()
def llm() -> None:
    """The optional LLM provider: approve a project's provider settings on this machine.

    A provider named in a committed .brv/config.yaml (in-project mode) is not used until you
    approve its URL and key variable here; a pull that changes them needs a new approval.
    Your own settings (llm: in ~/.config/brv/config.yaml, or BRV_LLM_BASE_URL,
    BRV_LLM_MODEL, BRV_LLM_API_KEY_ENV) need none and win over the project's.
    """


def _text(result: Any) -> str:
    key = f", key variable {result.api_key_env}" if result.api_key_env else ", no key"
    lines = [f"{'Already approved' if result.already else 'Approved'} on this machine for "
             f"this project: {result.base_url} (model {result.model}{key})",
             f"stored in {result.stored_in}; a change to the URL or the key variable needs "
             "a new 'brv llm approve'"]
    if result.user_settings_win:
        lines.append("note: your own provider settings are set and are used instead")
    return "\n".join(lines)


@llm.command("approve")
@json_option
@pass_app
def approve(app: AppContext, as_json: bool) -> None:
    """Approve the provider .brv/config.yaml names (its base_url and api_key_env).

    Check the URL and the variable first: brv sends that variable's value as a bearer
    token to that URL.

    \b
    Example:
      brv llm approve
    """
    from brv_vc.services.provider_trust import approve as run

    emit(run(app.project()), as_json, _text)
