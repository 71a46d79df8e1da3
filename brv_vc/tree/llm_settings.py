"""The optional provider's settings that may be used here.

The project's config.yaml read (``tree/config.py``) and the trust rule applied to it
(``tree/llm_trust.py``).

Its own module so that neither of the two imports the other's caller: the config reader knows
nothing of trust, and the trust rule only reads the settings' type.
"""

from __future__ import annotations

from brv_vc.errors import FormatError
from brv_vc.tree import llm_trust
from brv_vc.tree.config import LlmSettings, load_config, names_llm
from brv_vc.tree.project import Project
from brv_vc.tree.user_config import user_config_path


def configured_llm(project: Project) -> LlmSettings | None:
    """The optional provider's settings that may be used here, or None when none is configured.

    The URL and the key's variable come from the user's own settings when they name a
    provider, else from the project's config.yaml only when the user approved them for this
    project on this machine (:mod:`brv_vc.tree.llm_trust`).

    Trigger: search, query and every git hook ask this. Why: validating the config imports
    PyYAML and jsonschema (~100 ms). Outcome: the file is parsed only when it names ``llm:``.

    Raises:
        FormatError: config.yaml (or the user's) names a provider but is invalid.
        ProviderError: the project's provider is not approved on this machine.
    """
    user = llm_trust.user_llm()
    own = load_config(project).llm if names_llm(project) else None
    whose = llm_trust.source(project, user, own)
    if whose == "user":
        model = user.get("model") or (own.model if own else "")
        if not model:
            raise FormatError(
                f"{llm_trust.ENV_URL} names a provider but no model is set",
                hint=f"export {llm_trust.ENV_MODEL}=<model>, or set llm.model in "
                     f"{user_config_path()}", key="llm.model")
        timeout = user.get("timeout_seconds") or (own.timeout_seconds if own else 30.0)
        return LlmSettings(str(user["base_url"]), str(model), user.get("api_key_env"),
                           float(timeout))
    if own is None:
        return None
    if whose == "project-unapproved":
        raise llm_trust.unapproved(own.base_url, own.api_key_env)
    return own
