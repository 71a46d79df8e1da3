"""``.brv/config.yaml``: project settings, validated against ``schemas/config.schema.json``."""

from __future__ import annotations

from brv_vc.errors import BrvError, FormatError
from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple
from brv_vc.tree.project import CONFIG_FILE, Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# Every command imports this module (ensure_valid_config), so the validator is imported only
# where needed.

DEFAULT_CONFIG = """\
# brv project settings. Schema: schemas/config.schema.json in brv-vc.
version: 1
# Optional OpenAI-compatible LLM provider (local Ollama / vLLM / llama.cpp, or hosted).
# brv never needs one; it upgrades summaries and query tiers 3-4 when present.
# llm:
#   base_url: http://127.0.0.1:11434/v1
#   model: llama3.1
#   api_key_env: OPENAI_API_KEY   # hosted APIs only; leave out for a keyless local server
# base_url and api_key_env are used only after 'brv llm approve' on each machine (this file may
# come from someone else); your own llm: in ~/.config/brv/config.yaml needs none.
#   timeout_seconds: 30
"""


class LlmSettings(NamedTuple):
    """Where the optional provider is and how to reach it (the key stays in the environment)."""

    base_url: str
    model: str
    api_key_env: str | None = None
    timeout_seconds: float = 30.0


class Config(NamedTuple):
    """Project settings."""

    llm: LlmSettings | None = None
    search_limit: int = 10
    vc_mode: str | None = None
    raw: tuple[tuple[str, Any], ...] = ()


_FILE = f".brv/{CONFIG_FILE}"
# Settings are a few dozen lines; a 50 MB file (or a FIFO) once hung every command.
MAX_CONFIG_BYTES = 256 * 1024


def _too_large(size: int) -> FormatError:
    return FormatError(
        f"{_FILE} is {size:,} bytes, above the limit of {MAX_CONFIG_BYTES:,} bytes for "
        "settings; it is not read",
        file=_FILE,
        hint=f"keep only brv's settings in it (see schemas/config.schema.json), or move it "
        f"aside (mv {_FILE} {_FILE}.bak) and run 'brv init'",
    )


def _refuse_link_out(project: Project) -> None:
    """A config.yaml that is a symlink out of the project is never read (tree/confine.py).

    One ``lstat`` when it is no link. A linked ``/etc/passwd`` or a token file would
    otherwise be quoted by the parse error (and the PR Action copies errors into its log).
    """
    if project.config_path.is_symlink():
        from brv_vc.tree.confine import refuse_leaving_link

        refuse_leaving_link(project.root, _FILE)


def _read(project: Project) -> Any:
    """The parsed YAML of config.yaml: None when the file is missing, {} when it is empty.

    Raises:
        FormatError: a folder instead of a file, unreadable text, or malformed YAML (with the
            line and column).
    """
    import yaml  # deferred: commands that never read settings should not pay for PyYAML

    from brv_vc.format.frontmatter import load_yaml
    from brv_vc.tree.links import read_regular

    _refuse_link_out(project)
    try:
        data = read_regular(project.config_path, file=_FILE, limit=MAX_CONFIG_BYTES, follow=True)
        if len(data) > MAX_CONFIG_BYTES:
            raise _too_large(project.config_path.stat().st_size)
        text = data.decode("utf-8")
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise FormatError(
            f"{_FILE} is a folder, not a file", file=_FILE,
            hint=f"move it aside (mv {_FILE} {_FILE}.bak), then run 'brv init'",
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(
            f"{_FILE} cannot be read ({exc})", file=_FILE, hint="save it as UTF-8 text"
        ) from None
    try:
        return load_yaml(text) or {}
    except yaml.YAMLError as exc:
        raise FormatError(_yaml_message(exc), file=_FILE, hint="fix the YAML syntax") from None


def _yaml_message(exc: Any) -> str:
    """``malformed YAML (line 3, column 8): expected ',' or ']'...`` from a PyYAML error."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None)
    where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
    what = f"{exc.context}: {problem}" if problem and getattr(exc, "context", None) else problem
    return f"malformed YAML{where}: {what or str(exc).splitlines()[0]}"


def load_config(project: Project) -> Config:
    """Reads and validates ``.brv/config.yaml``; a missing file means the defaults.

    Raises:
        FormatError: malformed YAML or a value the schema refuses (file, key and fix named).
    """
    from brv_vc.format.validate import validate

    data = _read(project)
    if data is None:
        return Config()
    validate(data, "config", file=_FILE)
    llm = data.get("llm")
    return Config(
        llm=LlmSettings(**llm) if llm else None,
        search_limit=data.get("search", {}).get("limit", 10),
        vc_mode=data.get("vc", {}).get("mode"),
        raw=tuple(data.items()),
    )


# compiled at first use (pattern.lazy): every command imports this module (brv vc status
# among them, budgeted against git status)
_LLM_KEY = lazy(r"(?m)^llm\s*:")


def names_llm(project: Project) -> bool:
    """True when config.yaml has an ``llm:`` key (a text check: no YAML parsing).

    A symlink out of the project counts as naming one: :func:`load_config` then refuses it.
    """
    try:
        _refuse_link_out(project)
    except BrvError:
        return True
    try:
        with open(project.config_path, "rb") as handle:
            head = handle.read(MAX_CONFIG_BYTES + 1)
    except OSError:
        return False
    return bool(_LLM_KEY.search(head.decode("utf-8", "replace")))


ON_COMMIT_MODES = ("warn", "block", "off")
_CODE_LINKS = lazy(r"(?m)^code_links\s*:")  # patterns: see _LLM_KEY
# the block style 'brv init' documents; anything else (flow style, anchors) is parsed
_ON_COMMIT = lazy(r"(?m)^code_links\s*:[ \t]*(?:#.*)?\n(?:[ \t]+(?:#.*)?\n|[ \t]*\n)*?"
                  r"[ \t]+on_commit\s*:[ \t]*[\"']?([A-Za-z_-]*)[\"']?[ \t]*(?:#.*)?$")


def code_links_on_commit(project: Project) -> tuple[str, str | None]:
    """``code_links.on_commit`` (warn, block or off) and a warning when the value is bad.

    Trigger: the pre-commit hook on every commit that stages code. Why: its budget is
    50 ms and validating the config imports PyYAML and jsonschema (~100 ms). Outcome: a text
    check; YAML is parsed only when ``code_links:`` is written in a style the check does not
    read. A bad value falls back to ``warn`` (a hook never breaks git over a setting) with a
    warning naming the key; every other command refuses it (the schema's enum), as it
    refuses a config.yaml that links out of the project.
    """
    try:
        _refuse_link_out(project)
    except BrvError:
        return "warn", None
    try:
        with open(project.config_path, "rb") as handle:
            text = handle.read(MAX_CONFIG_BYTES + 1).decode("utf-8", "replace")
    except OSError:
        return "warn", None
    if not _CODE_LINKS.search(text):
        return "warn", None
    found = _ON_COMMIT.search(text)
    if found:
        value: Any = found.group(1)
    else:
        try:
            data = _read(project)
        except FormatError:  # every other command reports it
            return "warn", None
        section = data.get("code_links") if isinstance(data, dict) else None
        value = section.get("on_commit", "warn") if isinstance(section, dict) else "warn"
        value = "off" if value is False else value  # YAML 1.1 reads an unquoted off as false
    if value in ON_COMMIT_MODES:
        return value, None
    return "warn", (f"{_FILE}: 'code_links.on_commit' is {value!r}; it must be one of "
                    f"{', '.join(ON_COMMIT_MODES)} (warn is used until it is fixed)")


CONFIG_STAMP = "config.ok"


def ensure_valid_config(project: Project) -> tuple[str, ...]:
    """Validates config.yaml whenever it changed since it was last found valid.

    Trigger: every command. Why: a bad setting must be reported at once, not when an LLM tier
    first needs it, but validating imports PyYAML and jsonschema (~100 ms). Outcome: one stat
    and a tiny read per command; the full check runs only after config.yaml changed.

    A problem inside ``llm:`` only blocks the commands that call the provider (they read
    the settings with :func:`load_config`); every other command gets it as a warning. The
    stamp keeps the warning, so it repeats on every command until the file is fixed without
    validating again each time.

    Returns:
        Warnings for stderr (a bad ``llm:`` section), usually none.

    Raises:
        FormatError: config.yaml is malformed or breaks the schema outside ``llm:``.
    """
    _refuse_link_out(project)
    try:
        info = project.config_path.stat()
    except OSError:
        return ()
    if info.st_size > MAX_CONFIG_BYTES:
        raise _too_large(info.st_size)
    stamp = f"{info.st_mtime_ns} {info.st_size}"
    marker = project.state / CONFIG_STAMP
    try:
        head, _, kept = marker.read_text(encoding="utf-8").partition("\n")
        if head == stamp:
            return tuple(line for line in kept.split("\n") if line)
    except OSError:
        pass
    from brv_vc.format.validate import validate

    data = _read(project)
    llm = data.pop("llm", None) if isinstance(data, dict) else None
    validate(data, "config", file=_FILE)
    warnings: tuple[str, ...] = ()
    if llm is not None:
        try:
            validate({"version": 1, "llm": llm}, "config", file=_FILE)
        except FormatError as error:
            warnings = (
                f"{_FILE}: '{error.key}' {error.message}; commands that call the LLM provider "
                "(query tiers 3-4, summarize) refuse to run until it is fixed",
            )
    try:
        from brv_vc.tree.statedb import ensure_state_dir

        ensure_state_dir(marker.parent)
        marker.write_text("\n".join((stamp, *warnings)), encoding="utf-8")
    except OSError:
        pass  # a read-only state folder only costs the check again next time
    return warnings
