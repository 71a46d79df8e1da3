"""``brv llm approve / status / revoke``: the project's LLM provider settings on this machine."""

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


_EMBEDDINGS = click.option(
    "--embeddings", is_flag=True,
    help="The semantic lane's embeddings: endpoint instead of the llm: provider.")


@llm.command("approve")
@_EMBEDDINGS
@json_option
@pass_app
def approve(app: AppContext, embeddings: bool, as_json: bool) -> None:
    """Approve the provider .brv/config.yaml names (its base_url and api_key_env).

    Check the URL and the variable first: brv sends that variable's value as a bearer
    token to that URL. --embeddings approves the embeddings: endpoint (docs/semantic.md)
    by the same rule; one approval never covers the other.

    \b
    Example:
      brv llm approve
      brv llm approve --embeddings
    """
    from brv_vc.services.provider_trust import approve as run

    emit(run(app.project(), "embeddings" if embeddings else "llm"), as_json, _text)


_SOURCES = {
    "user": "your own settings (they win over the project's)",
    "project-approved": "the project's config.yaml, approved on this machine",
    "project-unapproved": "the project's config.yaml, NOT approved on this machine: nothing "
                          "is sent until 'brv llm approve'",
    "none": "no provider is configured: brv works offline (search, deterministic summaries)",
}


def _status_text(result: Any) -> str:
    lines = [f"provider: {_SOURCES[result.source]}"]
    if result.base_url:
        key = (f"{result.api_key_env} ({'set' if result.key_set else 'not set'} here)"
               if result.api_key_env else "none")
        lines += [f"  url:   {result.base_url}", f"  model: {result.model}",
                  f"  key variable: {key}"]
    lines.append(f"approvals: {result.approvals_file}")
    return "\n".join(lines)


@llm.command("status")
@json_option
@pass_app
def status(app: AppContext, as_json: bool) -> None:
    """Which provider brv would send to here, and why (nothing is sent).

    Shows the URL, the model and the name of the key variable (never its value).

    \b
    Example:
      brv llm status --json
    """
    from brv_vc.services.provider_trust import status as run

    emit(run(app.project()), as_json, _status_text)


@llm.command("revoke")
@_EMBEDDINGS
@json_option
@pass_app
def revoke(app: AppContext, embeddings: bool, as_json: bool) -> None:
    """Withdraw this machine's approval of the project's provider.

    After it, brv sends nothing to the provider .brv/config.yaml names until the next
    'brv llm approve'.

    \b
    Example:
      brv llm revoke
    """
    from brv_vc.services.provider_trust import revoke as run

    revoked = run(app.project(), "embeddings" if embeddings else "llm")
    emit({"revoked": revoked}, as_json,
         lambda _: "approval withdrawn on this machine" if revoked
         else "nothing to withdraw: this project's provider was not approved here")
