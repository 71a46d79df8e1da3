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
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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


def user_llm() -> dict[str, Any]:
    """The user's own ``llm:`` settings (file, then environment variables over it); {} when none.

    Raises:
        FormatError: the user's config.yaml is malformed or its ``llm:`` breaks the schema.
    """
    found: dict[str, Any] = {}
    llm = user_settings(b"llm").get("llm")
    if llm is not None:
        from brv_vc.format.validate import validate

        validate({"version": 1, "llm": llm}, "config", file=str(user_config_path()))
        found = dict(llm)
    for key, name in (("base_url", ENV_URL), ("model", ENV_MODEL), ("api_key_env", ENV_KEY)):
        if os.environ.get(name):
            found[key] = os.environ[name]
    if ENV_URL in os.environ and ENV_KEY not in os.environ:
        found.pop("api_key_env", None)  # a URL from the environment: its key variable too
    return found


def source(project: Project, user: dict[str, Any], own: LlmSettings | None) -> str:
    """Whose provider settings a call would use here (the rule above, said once).

    Args:
        project: the project.
        user: :func:`user_llm`'s answer.
        own: the project's own ``llm:`` settings (None: config.yaml names none).

    Returns:
        ``user``, ``none``, ``project-approved`` or ``project-unapproved``.
    """
    if user.get("base_url"):
        return "user"
    if own is None:
        return "none"
    if approved(project, own.base_url, own.api_key_env):
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


def approved(project: Project, base_url: str, api_key_env: str | None) -> bool:
    """Whether the user approved this pair for this project on this machine."""
    key = str(project.root.resolve())
    return _approvals().get(key) == fingerprint(base_url, api_key_env)


def approve(project: Project, base_url: str, api_key_env: str | None) -> Path:
    """Stores the approval of the pair for this project; returns the approvals file."""
    from brv_vc.tree.store import write_atomic

    approvals = _approvals()
    approvals[str(project.root.resolve())] = fingerprint(base_url, api_key_env)
    path = user_dir() / APPROVALS
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(approvals, indent=1, sort_keys=True).encode("utf-8"))
    return path


def revoke(project: Project) -> bool:
    """Removes this project's approval; True when there was one."""
    from brv_vc.tree.store import write_atomic

    approvals = _approvals()
    if approvals.pop(str(project.root.resolve()), None) is None:
        return False
    write_atomic(user_dir() / APPROVALS,
                 json.dumps(approvals, indent=1, sort_keys=True).encode("utf-8"))
    return True


def unapproved(base_url: str, api_key_env: str | None) -> ProviderError:
    """The refusal of a project's provider settings that were not approved here."""
    key = f" and the key variable {api_key_env}" if api_key_env else ""
    return ProviderError(
        f"the LLM provider in .brv/config.yaml ({base_url}{key}) comes with the project "
        "and is not approved on this machine; nothing was sent to it",
        hint="check the URL and the variable, then run 'brv llm approve' (or set your own "
             f"llm: in {user_config_path()})",
        key="llm.base_url",
    )
