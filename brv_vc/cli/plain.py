"""JSON-ready values for ``--json`` output.

Click-free, so the fast paths (``cli/fast.py``, ``cli/fast_vc.py``) print exactly what
``cli/render.py`` prints: both go through :func:`emit`.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

# typing costs ~5 ms to import and this module is on the cold search path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
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


def document(result: Any) -> str:
    """The ``--json`` answer for ``result``: ``{"ok": true, "version": 1, ...}``, indented."""
    import json  # only --json needs it (this module is on the cold search path)

    payload = jsonable(result)
    if isinstance(payload, dict):
        payload = versioned({"ok": True, **payload})
    return json.dumps(payload, indent=2, ensure_ascii=False)


def _write_line(text: str) -> None:
    sys.stdout.write(text + "\n")


def emit(result: Any, as_json: bool, text: Callable[[Any], str],
         echo: Callable[[str], object] = _write_line) -> None:
    """Prints ``result`` as :func:`document` or as the text ``text`` renders (nothing if empty).

    ``echo`` prints one line: ``click.echo`` for the click commands (``cli.render.emit``), a
    plain write to ``sys.stdout`` for the click-free paths.
    """
    if as_json:
        echo(document(result))
    else:
        rendered = text(result)
        if rendered:
            echo(rendered)
