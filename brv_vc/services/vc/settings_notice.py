"""What a pull or merge changed in the shared settings that matter for trust.

In in-project mode ``.brv/config.yaml`` travels with the repository: a teammate's commit can
point the LLM provider elsewhere, name another key variable, or turn review off. A pull that
changes any of them says so (``brv vc pull`` and the post-merge hook of a plain ``git pull``);
a changed provider is then not used until ``brv llm approve`` (:mod:`brv_vc.tree.llm_trust`).
"""

from __future__ import annotations

import os
from collections.abc import Collection

from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_WATCHED = (("llm", "base_url", "the LLM provider URL"),
            ("llm", "api_key_env", "the variable whose value is sent as the provider key"),
            ("review", "enabled", "review"))


def _settings(repo: KnowledgeRepo, rev: str | None, rel: str) -> dict[str, Any]:
    if rev is None:
        return {}
    text = git.file_at(repo.workdir, rev, rel)
    if not text:
        return {}
    import yaml

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _value(data: dict[str, Any], section: str, key: str) -> Any:
    block = data.get(section)
    return block.get(key) if isinstance(block, dict) else None


def settings_changes(project: Project, repo: KnowledgeRepo, old: str | None,
                     new: str | None, changed: Collection[str] | None = None
                     ) -> tuple[str, ...]:
    """One line per watched setting the commits ``old..new`` changed in config.yaml.

    ``changed``: the repository paths ``old..new`` changes, when the caller diffed already.
    """
    if new is None or old == new:
        return ()
    rel = os.path.relpath(project.config_path, repo.workdir)
    if rel.startswith(".."):
        return ()  # standalone mode: config.yaml is not in the repository
    rel = rel.replace(os.sep, "/")
    if changed is not None and rel not in changed:
        return ()
    if old is not None and git.same_at(repo.workdir, old, new, rel):
        return ()
    before, after = _settings(repo, old, rel), _settings(repo, new, rel)
    lines = []
    for section, key, what in _WATCHED:
        was, now = _value(before, section, key), _value(after, section, key)
        if was == now:
            continue
        if section == "review":
            lines.append(f"the pull turned review {'on' if now else 'off'} in .brv/config.yaml "
                         f"(review.enabled: {was!r} -> {now!r})")
        else:
            lines.append(f"the pull changed {what} in .brv/config.yaml (llm.{key}: {was!r} -> "
                         f"{now!r})")
    url, key = _value(after, "llm", "base_url"), _value(after, "llm", "api_key_env")
    if any(line.startswith("the pull changed") for line in lines) and isinstance(url, str) and (
            not _approved(project, url, key if isinstance(key, str) else None)):
        lines.append("that provider is not used on this machine until you check it and run "
                     "'brv llm approve'")
    return tuple(lines)


def _approved(project: Project, url: str, key: str | None) -> bool:
    """Whether the new provider is used as it is (the user's own settings win, or approved)."""
    from brv_vc.errors import BrvError
    from brv_vc.tree import llm_trust
    from brv_vc.tree.config import LlmSettings

    try:  # the one rule (tree/llm_trust.source), asked of the pulled pair
        whose = llm_trust.source(project, llm_trust.user_llm(), LlmSettings(url, "", key))
    except BrvError:
        return False
    return whose != "project-unapproved"
