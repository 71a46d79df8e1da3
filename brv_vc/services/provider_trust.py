"""``brv llm approve / status / revoke``: the project's LLM provider settings on this machine.

See :mod:`brv_vc.tree.llm_trust` for why a repository's provider is not trusted unasked.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc import environment
from brv_vc.errors import NotFoundError
from brv_vc.tree import llm_trust
from brv_vc.tree.config import LlmSettings, load_config
from brv_vc.tree.project import Project
from brv_vc.tree.user_config import user_dir


@dataclass(frozen=True)
class Approval:
    """What was approved, where it is stored, and whether the user's own settings win."""

    base_url: str
    api_key_env: str | None
    model: str
    stored_in: str
    already: bool
    user_settings_win: bool


def _own(project: Project, section: str) -> LlmSettings | None:
    """The project's own settings of ``section`` that an approval would cover."""
    if section == "llm":
        return load_config(project).llm
    values = dict(load_config(project).raw).get(section)
    if not isinstance(values, dict):
        return None
    if not values.get("base_url"):
        raise NotFoundError(
            f"the {section}: section of .brv/config.yaml names the offline model "
            f"{values.get('model')!r}: nothing leaves this machine, so there is nothing to approve")
    return LlmSettings(str(values["base_url"]), str(values.get("model") or ""),
                       values.get("api_key_env"))


def approve(project: Project, section: str = "llm") -> Approval:
    """Approves the endpoint ``.brv/config.yaml`` names in ``section`` (URL and key variable).

    Args:
        project: the project.
        section: ``llm`` (the provider) or ``embeddings`` (the semantic lane's endpoint).

    Raises:
        NotFoundError: config.yaml names no endpoint there (nothing to approve).
        FormatError: config.yaml is invalid.
    """
    own = _own(project, section)
    if own is None:
        raise NotFoundError(f"there is no {section}: section in .brv/config.yaml; nothing to approve",
                            hint="docs/retrieval.md shows the llm: settings, docs/semantic.md "
                                 "the embeddings: ones")
    already = llm_trust.approved(project, own.base_url, own.api_key_env, section)
    path = llm_trust.approve(project, own.base_url, own.api_key_env, section)
    return Approval(own.base_url, own.api_key_env, own.model, str(path), already,
                    bool(llm_trust.user_section(section).get("base_url")))


@dataclass(frozen=True)
class ProviderStatus:
    """Which provider brv would use here, and why (never the key's value)."""

    source: str  # user | project-approved | project-unapproved | none
    base_url: str | None
    model: str | None
    api_key_env: str | None
    key_set: bool  # whether that variable is set in this environment
    approvals_file: str


def status(project: Project) -> ProviderStatus:
    """Says which provider a ``brv query`` would send to, without sending anything.

    Raises:
        FormatError: config.yaml or the user's config.yaml is invalid.
    """
    user = llm_trust.user_llm()
    own = load_config(project).llm
    where = str(user_dir() / llm_trust.APPROVALS)
    source = llm_trust.source(project, user, own)
    if source == "user":
        key = user.get("api_key_env")
        model = user.get("model") or (own.model if own else None)
        return ProviderStatus("user", str(user["base_url"]), model, key,
                              bool(key and environment.get(key)), where)
    if own is None:
        return ProviderStatus("none", None, None, None, False, where)
    key = own.api_key_env
    return ProviderStatus(source, own.base_url, own.model, key,
                          bool(key and environment.get(key)), where)


def revoke(project: Project, section: str = "llm") -> bool:
    """Withdraws this machine's approval of the project's ``section``; True when there was one."""
    return llm_trust.revoke(project, section)
