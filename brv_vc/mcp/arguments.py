"""A tool call's bad arguments, answered in brv's error shape and in the tool's own words.

The SDK checks a call's arguments against the tool's input schema and answers a mismatch
with the validation library's text (``1 validation error for searchArguments ... visit
https://errors.pydantic.dev/...``), and it drops an argument the tool does not have without
a word (``limt`` for ``limit``). Here each becomes the error object every other brv answer
carries (``{"ok": false, "version": 1, "error": {code, message, key, hint}}``), naming the
argument as the tool's schema names it: ``brv-search: limit must be an integer, got 'many'``.
A value out of its range is the service's :class:`~brv_vc.errors.OptionError`, said here in
the same words (``limit must be between 1 and 50, got 500``), not the CLI's ``--limit``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from brv_vc.errors import OptionError

SHOWN = 60  # characters of a rejected value quoted back

# what a value must be, by the validation error's type (pydantic's error codes)
_MUST = {
    "int_parsing": "must be an integer", "int_type": "must be an integer",
    "int_from_float": "must be a whole number", "float_parsing": "must be a number",
    "float_type": "must be a number", "string_type": "must be a string",
    "bool_parsing": "must be true or false", "bool_type": "must be true or false",
    "list_type": "must be a list", "dict_type": "must be an object",
    "model_type": "must be an object", "none_required": "must be null",
}
_JSON_TYPES = {"string": "a string", "integer": "an integer", "number": "a number",
               "boolean": "true or false", "array": "a list", "object": "an object"}


def _where(loc: Sequence[Any]) -> str:
    """``operations[0].path`` from a validation error's location."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _quoted(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= SHOWN else text[:SHOWN] + "..."


def _kind(schema: Mapping[str, Any]) -> str:
    """What a property of the input schema holds, in words (``a string``, ``a list``)."""
    kinds = [s.get("type") for s in schema.get("anyOf", [schema]) if isinstance(s, Mapping)]
    named = [_JSON_TYPES[k] for k in kinds if isinstance(k, str) and k in _JSON_TYPES]
    return " or ".join(named) or "a value"


def usage(tool: str, schema: Mapping[str, Any]) -> str:
    """The hint listing a tool's arguments: ``brv-search takes query (a string, required), ...``."""
    props = schema.get("properties", {})
    required = set(schema.get("required", ()))
    parts = [f"{name} ({_kind(spec)}{', required' if name in required else ''})"
             for name, spec in props.items() if isinstance(spec, Mapping)]
    return f"{tool} takes {', '.join(parts)}"


def _answer(tool: str, schema: Mapping[str, Any], problems: list[str], key: str) -> dict[str, Any]:
    return {"ok": False, "version": 1, "error": {
        "code": "usage", "message": "; ".join(problems), "key": key,
        "hint": usage(tool, schema)}}


def unknown(tool: str, schema: Mapping[str, Any] | None,
            arguments: Mapping[str, Any]) -> dict[str, Any] | None:
    """The refusal of arguments the tool does not have (None when there are none)."""
    if schema is None:
        return None
    props = schema.get("properties", {})
    extra = [name for name in arguments if name not in props]
    if not extra:
        return None
    said = ", ".join(repr(name) for name in extra)
    noun = "argument" if len(extra) == 1 else "arguments"
    return _answer(tool, schema, [f"no {noun} {said}; nothing was done"], extra[0])


def invalid(tool: str, schema: Mapping[str, Any], errors: Sequence[Mapping[str, Any]]
            ) -> dict[str, Any]:
    """The refusal of arguments that do not match the tool's input schema.

    Args:
        tool: the tool's name.
        schema: its input schema (for the hint).
        errors: the validation errors (pydantic's ``ValidationError.errors()``).
    """
    problems = []
    for error in errors:
        where = _where(error.get("loc", ())) or "the arguments"
        kind = str(error.get("type", ""))
        if kind == "missing":
            problems.append(f"{where} is required")
            continue
        must = _MUST.get(kind, "has a value of the wrong type")
        problems.append(f"{where} {must}, got {_quoted(error.get('input'))}")
    first = _where(errors[0].get("loc", ())) if errors else ""
    return _answer(tool, schema, problems, first)


def in_tool_words(payload: dict[str, Any], failure: BaseException) -> dict[str, Any]:
    """``payload`` (a tool's error answer) naming an option as the tool's argument.

    ``failure`` is the :class:`~brv_vc.mcp.tools.ToolFailure`; the service's error it stands
    for is its ``__context__`` (raised while handling it, ``from None`` hides only the print).
    """
    cause = failure.__context__
    if not isinstance(cause, OptionError):
        return payload
    return {**payload, "error": {**payload["error"], **cause.in_argument_words()}}
