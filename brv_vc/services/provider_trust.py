"""``brv llm approve``: approve the project's LLM provider settings on this machine.

See :mod:`brv_vc.tree.llm_trust` for why a repository's provider is not trusted unasked.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc.errors import NotFoundError
from brv_vc.tree import llm_trust
from brv_vc.tree.config import load_config
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class Approval:
    """What was approved, where it is stored, and whether the user's own settings win."""

    base_url: str
    api_key_env: str | None
    model: str
    stored_in: str
    already: bool
    user_settings_win: bool


def approve(project: Project) -> Approval:
    """Approves the provider ``.brv/config.yaml`` names (its URL and key variable).

    Raises:
        NotFoundError: config.yaml names no provider (nothing to approve).
        FormatError: config.yaml is invalid.
    """
    own = load_config(project).llm
    if own is None:
        raise NotFoundError("there is no llm: section in .brv/config.yaml; nothing to approve",
                            hint="docs/retrieval.md shows the llm: settings")
    already = llm_trust.approved(project, own.base_url, own.api_key_env)
    path = llm_trust.approve(project, own.base_url, own.api_key_env)
    return Approval(own.base_url, own.api_key_env, own.model, str(path), already,
                    bool(llm_trust.user_llm().get("base_url")))
