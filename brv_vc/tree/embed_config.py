"""The semantic lane's settings: which embedding model a search may use here, and whether at all.

Three ways in, none by default (without one brv behaves exactly as it does without the lane):

- the user's own ``embeddings:`` in ``$XDG_CONFIG_HOME/brv/config.yaml``, or
  ``BRV_EMBED_BASE_URL`` / ``BRV_EMBED_MODEL`` / ``BRV_EMBED_API_KEY_ENV``;
- the project's ``embeddings:`` in ``.brv/config.yaml``: its endpoint (URL and key variable)
  only once approved on this machine, by the same rule as the LLM provider's
  (:mod:`brv_vc.tree.llm_trust`, section ``embeddings``);
- ``model: wordllama`` without ``base_url`` (either file, or ``BRV_EMBED_MODEL=wordllama``):
  the offline model of the ``[semantic]`` extra. Nothing leaves the machine, so a project
  may name it unapproved.
"""

from __future__ import annotations

from brv_vc.errors import FormatError
from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple
from brv_vc.tree.config import MAX_CONFIG_BYTES, LlmSettings, load_config
from brv_vc.tree.project import Project

SECTION = "embeddings"
LOCAL_MODELS = ("wordllama",)
_NAMED = lazy(r"(?m)^embeddings\s*:")


class EmbedSettings(NamedTuple):
    """The model a search embeds with: an endpoint (``base_url``) or the local one (no URL)."""

    model: str
    base_url: str = ""
    api_key_env: str | None = None
    timeout_seconds: float = 10.0

    @property
    def local(self) -> bool:
        """True for the offline model (no endpoint)."""
        return not self.base_url

    @property
    def key(self) -> str:
        """What a stored vector is keyed by besides the content (another model: another key)."""
        return f"local:{self.model}" if self.local else f"{self.base_url.rstrip('/')}#{self.model}"

    def endpoint(self) -> LlmSettings:
        """The endpoint's settings in the provider client's shape."""
        return LlmSettings(self.base_url, self.model, self.api_key_env, self.timeout_seconds)


def named(project: Project) -> bool:
    """True when any of the three ways in names the lane (environment, files: a text check).

    Trigger: every search. Why: a tree without the lane must keep its cold search budget
    (no YAML parsing, no numpy). Outcome: two small reads, usually nothing more.
    """
    from brv_vc import environment
    from brv_vc.tree.llm_trust import ENV_NAMES
    from brv_vc.tree.user_config import user_config_path

    if any(environment.get(name) for name in ENV_NAMES[SECTION][:2]):
        return True
    for path in (user_config_path(), project.config_path):
        try:
            with open(path, "rb") as handle:
                head = handle.read(MAX_CONFIG_BYTES + 1)
        except OSError:
            continue
        if _NAMED.search(head.decode("utf-8", "replace")):
            return True
    return False


def _settings(values: dict[str, object]) -> EmbedSettings:
    model = str(values.get("model") or "")
    url = str(values.get("base_url") or "")
    if not url and model not in LOCAL_MODELS:
        raise FormatError(
            f"embeddings.model is {model!r} but no embeddings.base_url names an endpoint; "
            f"the offline models are: {', '.join(LOCAL_MODELS)}",
            key="embeddings.model",
            hint="set embeddings.base_url to an OpenAI-compatible /v1 endpoint, or model: wordllama")
    key = values.get("api_key_env")
    timeout = values.get("timeout_seconds")
    return EmbedSettings(model, url, str(key) if key else None,
                         float(timeout) if isinstance(timeout, (int, float)) else 10.0)


def configured_embeddings(project: Project) -> EmbedSettings | None:
    """The embedding model a search may use here, or None when the lane is off.

    Raises:
        FormatError: a config file names ``embeddings:`` but is invalid.
        ProviderError: the project's endpoint is not approved on this machine (nothing is
            sent to it; the search answers lexically and says so).
    """
    if not named(project):
        return None
    from brv_vc.tree import llm_trust

    user = llm_trust.user_section(SECTION)
    own_values = dict(load_config(project).raw).get(SECTION) if _project_names(project) else None
    own = dict(own_values) if isinstance(own_values, dict) else None
    if user.get("base_url"):  # the user's endpoint; the project may still name the model
        return _settings({**user, "model": user.get("model") or (own or {}).get("model")})
    if user.get("model"):  # the user's offline model: never the project's URL
        return _settings({"model": user["model"]})
    if own is None:
        return None
    settings = _settings(own)
    if settings.local:
        return settings
    pair = LlmSettings(settings.base_url, settings.model, settings.api_key_env)
    if llm_trust.source(project, user, pair, SECTION) == "project-unapproved":
        raise llm_trust.unapproved(settings.base_url, settings.api_key_env, SECTION)
    return settings


def _project_names(project: Project) -> bool:
    try:
        with open(project.config_path, "rb") as handle:
            return bool(_NAMED.search(handle.read(MAX_CONFIG_BYTES + 1).decode("utf-8", "replace")))
    except OSError:
        return False
