"""JSON-Schema validation with messages a user can act on (STYLE item 4).

Each message names the file, the key path, what was expected and how to fix it.
"""

from __future__ import annotations

from functools import cache

from brv_vc.errors import FormatError
from brv_vc.resources import load_schema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@cache
def _validator(name: str) -> Any:
    # Deferred import: jsonschema costs ~100 ms to import, so only writers and checks pay it.
    from jsonschema import Draft202012Validator

    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def key_path(parts: Any) -> str:
    """Formats a jsonschema path deque as ``operations[3].path``."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def errors_of(data: Any, schema: str) -> list[tuple[str, str]]:
    """Returns (key path, message) for every schema violation, in document order."""
    found = sorted(_validator(schema).iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    return [(key_path(e.absolute_path), _explain(e)) for e in found]


def validate(data: Any, schema: str, *, file: str | None = None) -> None:
    """Validates ``data`` against ``schemas/<schema>.schema.json``.

    Raises:
        FormatError: naming the first offending key path, what was expected and the fix;
            further problems are counted in the hint.
    """
    if schema == "frontmatter":
        from brv_vc.format.frontmatter_check import surely_valid

        if surely_valid(data):  # the common case, without importing jsonschema
            return
    problems = errors_of(data, schema)
    if not problems:
        return
    key, message = problems[0]
    more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 else ""
    raise FormatError(
        f"{message}{more}",
        file=file,
        key=key,
        hint=f"fix '{key}' as the schema {schema}.schema.json describes",
    )


_JSON_TYPES = {"str": "string", "int": "integer", "float": "number", "bool": "boolean",
               "list": "array", "dict": "object", "NoneType": "null"}


def _short(value: Any, limit: int = 60) -> str:
    """A repr that never floods a message (a 40,000-character string shows its start)."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return text[: limit - 5] + "...'" + f" ({len(str(value)):,} chars)"


def _explain(error: Any) -> str:
    validator = error.validator
    if validator == "maxLength":
        return f"is {len(error.instance):,} characters long; the limit is {error.validator_value:,}"
    if validator == "minLength":
        return "must not be empty" if error.validator_value == 1 else (
            f"must be at least {error.validator_value} characters long"
        )
    if validator in ("maxItems", "minItems"):
        word = "at most" if validator == "maxItems" else "at least"
        return f"has {len(error.instance)} items; expected {word} {error.validator_value}"
    if validator == "anyOf":
        branches = error.validator_value
        if all(isinstance(b, dict) and set(b) == {"required"} for b in branches):
            names = [repr(name) for b in branches for name in b["required"]]
            return f"needs one of {', '.join(names[:-1])} or {names[-1]}"
        return f"{_short(error.instance)} has the wrong type or shape"
    if validator == "required":
        return str(error.message).replace("is a required property", "is required but missing")
    if validator == "additionalProperties":
        return f"unknown key: {error.message.split('(')[-1].rstrip(')')}"
    if validator == "const":
        return f"expected {error.validator_value!r}, got {error.instance!r}"
    if validator == "enum":
        allowed = ", ".join(map(repr, error.validator_value))
        return f"{_short(error.instance)} is not one of {allowed}"
    if validator == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        got = _JSON_TYPES.get(type(error.instance).__name__, type(error.instance).__name__)
        return f"expected {expected}, got {got} {_short(error.instance)}"
    return str(error.message)
