"""Whose provider settings to trust: the user's own, or a project's only once approved here.

A project's ``.brv/config.yaml`` can always come from someone else: a teammate's commit in
in-project mode, a clone, a checkout made with ``git --git-dir=X --work-tree=Y`` (no ``.git``
in sight), a ``git archive``, a forge's "Download ZIP", a copied folder. Trusting it would
send ``llm.api_key_env``'s variable (``GITHUB_TOKEN``, a cloud key) as a bearer token to any
``llm.base_url`` on the next ``brv query``. So, as git's ``safe.directory`` and direnv's
``allow`` do, whatever way the project arrived:

- the user's own settings win: ``llm:`` in ``$XDG_CONFIG_HOME/brv/config.yaml`` (default
  ``~/.config/brv/config.yaml``), or ``BRV_LLM_BASE_URL`` / ``BRV_LLM_MODEL`` /
  ``BRV_LLM_API_KEY_ENV``; the URL and the key's variable then come from there alone (the
  project may still name the model and the timeout);
- a project's own ``base_url``/``api_key_env`` pair is used only after ``brv llm approve``
  stored its digest for this project's path in ``$XDG_CONFIG_HOME/brv/approved.json``
  (outside every repository); a pull, a copy or an edit that changes the pair needs a new
  approval, and so does the same project at another path.

The semantic lane's ``embeddings:`` endpoint (:mod:`brv_vc.tree.embed_config`) follows the
same rule, section by section: ``embeddings:`` in the user's file or ``BRV_EMBED_BASE_URL`` /
``BRV_EMBED_MODEL`` / ``BRV_EMBED_API_KEY_ENV``, else the project's pair once
``brv llm approve --embeddings`` stored its own approval (one approval never covers the
other section).
"""

from __future__ import annotations

import json
from pathlib import Path

from brv_vc import environment
from brv_vc.digest import sha256
from brv_vc.errors import ProviderError
from brv_vc.tree.project import Project
from brv_vc.tree.user_config import user_config_path, user_dir, user_settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from brv_vc.tree.config import LlmSettings

APPROVALS = "approved.json"
ENV_URL, ENV_MODEL, ENV_KEY = "BRV_LLM_BASE_URL", "BRV_LLM_MODEL", "BRV_LLM_API_KEY_ENV"
ENV_NAMES = {
    "llm": (ENV_URL, ENV_MODEL, ENV_KEY),
    "embeddings": ("BRV_EMBED_BASE_URL", "BRV_EMBED_MODEL", "BRV_EMBED_API_KEY_ENV"),
}


def user_section(section: str) -> dict[str, Any]:
    """The user's own ``<section>:`` settings (file, then environment variables over it).

    Args:
        section: ``llm`` or ``embeddings``.

    Returns:
        The settings; {} when none.

    Raises:
        FormatError: the user's config.yaml is malformed or the section breaks the schema.
    """
    found: dict[str, Any] = {}
    own = user_settings(section.encode()).get(section)
    if own is not None:
        from brv_vc.format.validate import validate

        validate({"version": 1, section: own}, "config", file=str(user_config_path()))
        found = dict(own)
    url, model, key_env = ENV_NAMES[section]
    for key, name in (("base_url", url), ("model", model), ("api_key_env", key_env)):
        value = environment.get(name)
        if value:
            found[key] = value
    if environment.is_set(url) and not environment.is_set(key_env):
        found.pop("api_key_env", None)  # a URL from the environment: its key variable too
    return found


def user_llm() -> dict[str, Any]:
    """The user's own ``llm:`` settings (file, then environment variables over it); {} when none.

    Raises:
        FormatError: the user's config.yaml is malformed or its ``llm:`` breaks the schema.
    """
    return user_section("llm")


def source(project: Project, user: dict[str, Any], own: LlmSettings | None,
           section: str = "llm") -> str:
    """Whose provider settings a call would use here (the rule above, said once).

    Args:
        project: the project.
        user: :func:`user_section`'s answer for ``section``.
        own: the project's own settings of the section (None: config.yaml names none).
        section: ``llm`` or ``embeddings``.

    Returns:
        ``user``, ``none``, ``project-approved`` or ``project-unapproved``.
    """
    if user.get("base_url"):
        return "user"
    if own is None:
        return "none"
    if approved(project, own.base_url, own.api_key_env, section):
        return "project-approved"
    return "project-unapproved"


def fingerprint(base_url: str, api_key_env: str | None) -> str:
    """What an approval covers: the URL and the name of the key's variable."""
    text = json.dumps([base_url, api_key_env or ""])
    return sha256(text.encode("utf-8")).hexdigest()


def _approvals() -> dict[str, str]:
    try:
        data = json.loads((user_dir() / APPROVALS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def _key(project: Project, section: str) -> str:
    """The approvals file's key: the project's path (``#embeddings`` added for that section)."""
    root = str(project.root.resolve())
    return root if section == "llm" else f"{root}#{section}"


def approved(project: Project, base_url: str, api_key_env: str | None,
             section: str = "llm") -> bool:
    """Whether the user approved this pair of ``section`` for this project on this machine."""
    return _approvals().get(_key(project, section)) == fingerprint(base_url, api_key_env)


def approve(project: Project, base_url: str, api_key_env: str | None,
            section: str = "llm") -> Path:
    """Stores the approval of the pair for this project; returns the approvals file."""
    from brv_vc.tree.store import write_atomic

    approvals = _approvals()
    approvals[_key(project, section)] = fingerprint(base_url, api_key_env)
    path = user_dir() / APPROVALS
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(approvals, indent=1, sort_keys=True).encode("utf-8"))
    return path


def revoke(project: Project, section: str = "llm") -> bool:
    """Removes this project's approval of ``section``; True when there was one."""
    from brv_vc.tree.store import write_atomic

    approvals = _approvals()
    if approvals.pop(_key(project, section), None) is None:
        return False
    write_atomic(user_dir() / APPROVALS,
                 json.dumps(approvals, indent=1, sort_keys=True).encode("utf-8"))
    return True


def unapproved(base_url: str, api_key_env: str | None, section: str = "llm") -> ProviderError:
    """The refusal of a project's provider settings that were not approved here."""
    key = f" and the key variable {api_key_env}" if api_key_env else ""
    what, flag = (("LLM provider", "") if section == "llm"
                  else ("embeddings endpoint", f" --{section}"))
    return ProviderError(
        f"the {what} in .brv/config.yaml ({base_url}{key}) comes with the project "
        "and is not approved on this machine; nothing was sent to it",
        hint=f"check the URL and the variable, then run 'brv llm approve{flag}' (or set your "
             f"own {section}: in {user_config_path()})",
        key=f"{section}.base_url",
    )
