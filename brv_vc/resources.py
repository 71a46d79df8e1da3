"""Files shipped with brv: the JSON Schemas and the git hook template.

In a source checkout they are the top-level ``schemas/`` and ``hooks/`` folders; in an
installed package setuptools maps them to ``brv_vc/schemas`` and ``brv_vc/hooks``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_PACKAGE = Path(__file__).resolve().parent


def _folder(name: str) -> Path:
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"brv is installed without its {name}/ folder; reinstall brv-vc")


def schema_path(name: str) -> Path:
    """Returns the path of ``schemas/<name>.schema.json``."""
    return _folder("schemas") / f"{name}.schema.json"


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Loads ``schemas/<name>.schema.json`` (cached)."""
    with schema_path(name).open(encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


def hook_template() -> Path:
    """Returns the path of the shipped hook template ``hooks/hook.sh`` (one for every hook)."""
    return _folder("hooks") / "hook.sh"
