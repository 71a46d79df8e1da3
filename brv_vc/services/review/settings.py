"""Whether review is on (``review: enabled: true`` in ``.brv/config.yaml``), and switching it.

Trigger: commit, push and the pre-commit hook ask on every run. Why: validating the config
costs ~100 ms (PyYAML + jsonschema). Outcome: the file is parsed only when it names
``review:``; a project that never enabled review pays one small read.
"""

from __future__ import annotations

import re

from brv_vc.errors import FormatError
from brv_vc.pattern import lazy
from brv_vc.tree.project import Project

_BLOCK = lazy(r"^review:[^\n]*\n(?:[ \t]+[^\n]*\n?|[ \t]*\n)*", re.MULTILINE)


def is_enabled(project: Project) -> bool:
    """True when the project's settings turn review on (off by default: a solo user)."""
    try:
        text = project.config_path.read_text(encoding="utf-8")
    except OSError:
        return False
    if not re.search(r"^review\s*:", text, re.MULTILINE):
        return False
    import yaml  # every command already validated the file (tree.config.ensure_valid_config)

    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    value = data.get("review") if isinstance(data, dict) else None
    return bool(value.get("enabled", False)) if isinstance(value, dict) else False


def set_enabled(project: Project, enabled: bool) -> bool:
    """Writes ``review: enabled: <bool>`` into config.yaml, keeping its other lines.

    Returns:
        The new setting.

    Raises:
        FormatError: config.yaml is invalid (nothing is written).
    """
    from brv_vc.tree.config import DEFAULT_CONFIG, load_config
    from brv_vc.tree.store import write_atomic

    load_config(project)  # refuse to touch a broken file
    try:
        text = project.config_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = DEFAULT_CONFIG
    text = _BLOCK.sub("", text)
    if text and not text.endswith("\n"):
        text += "\n"
    text += f"review:\n  enabled: {'true' if enabled else 'false'}\n"
    write_atomic(project.config_path, text.encode("utf-8"))
    if is_enabled(project) != enabled:  # pragma: no cover - the block regex missed a layout
        raise FormatError("could not switch review in .brv/config.yaml",
                          file=".brv/config.yaml", hint="set 'review: enabled:' by hand")
    return enabled
