"""JSON-ready values for ``--json`` output.

Click-free, so the fast path (``cli/fast.py``) prints exactly what ``cli/render.py`` prints.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

# typing costs ~5 ms to import and this module is on the cold search path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


_PLAIN = (str, int, float, bool, type(None))
_FIELDS: dict[type, tuple[str, ...]] = {}  # a record type -> its field names


def _field_names(value: Any) -> tuple[str, ...] | None:
    """A record's field names: a NamedTuple's ``_fields``, a dataclass's fields, else None.

    ``dataclasses`` is looked up, not imported: the cold search path never loads it (its
    records are NamedTuples), and no value can be a dataclass before it is loaded.
    """
    names = getattr(type(value), "_fields", None)
    if isinstance(names, tuple) and isinstance(value, tuple):
        return names
    dataclasses = sys.modules.get("dataclasses")
    if dataclasses and dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(f.name for f in dataclasses.fields(value))
    return None


def jsonable(value: Any) -> Any:
    """Converts records (dataclasses, NamedTuples), tuples, paths and enums to JSON values."""
    kind = type(value)
    if kind in _PLAIN:  # most values: no reflection (1,000 review entries hold 15,000)
        return value
    names = _FIELDS.get(kind)
    if names is None and (names := _field_names(value)) is not None:
        _FIELDS[kind] = names
    if names is not None:
        return {name: jsonable(getattr(value, name)) for name in names}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Path):
        return str(value)
    return value


JSON_VERSION = 1  # the shape of every --json answer (schemas/output/*.schema.json)


def versioned(doc: dict[str, Any]) -> dict[str, Any]:
    """An answer with ``"version"`` right after ``"ok"`` (bumped when a shape breaks)."""
    head = {"ok": doc["ok"]} if "ok" in doc else {}
    return {**head, "version": JSON_VERSION, **{k: v for k, v in doc.items() if k != "ok"}}
