"""JSON from people and agents, parsed strictly: no repeated keys, no deep nesting.

``json.loads`` keeps the *last* of two equal keys, so ``{"type": "ADD", "type": "DELETE"}``
silently deletes; and JSON nested 100,000 levels deep ended in a RecursionError (exit 3).
Both are refused here with a :class:`FormatError` naming the file and the fix.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from brv_vc.errors import FormatError

# Operations and decisions are at most a few levels deep ([{"tags": [...]}]); 64 levels is
# far above any real document and far below Python's recursion limit, which the schema
# validator and the writers would otherwise reach.
MAX_DEPTH = 64


# what a repeated key costs, said wherever one is refused (files, MCP requests)
LAST_WINS = "JSON keeps only the last value, so the first would be silently ignored"


class DuplicateKey(Exception):
    """A key repeated in one JSON object (``key`` names it)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads``'s ``object_pairs_hook``: a dict, or DuplicateKey for a repeated key."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise DuplicateKey(key)
            seen.add(key)
    return out


class NotJsonNumber(Exception):
    """``NaN``, ``Infinity`` or ``-Infinity``: Python's json reads them, JSON has no such number."""


def no_constants(name: str) -> Any:
    """``json.loads``'s ``parse_constant``: refuses NaN and the infinities."""
    raise NotJsonNumber(name)


def _depth(value: Any) -> int:
    """The nesting depth of a parsed value (iterative: no recursion limit)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                   else item))
    return deepest


def loads_strict(text: str, *, what: str, file: str, example: str) -> Any:
    """Parses ``text`` as JSON, refusing repeated keys and nesting over :data:`MAX_DEPTH`.

    Args:
        text: the document.
        what: what it holds, for messages ("operations", "decisions").
        file: the file it came from.
        example: a valid document, for the hint.

    Raises:
        FormatError: invalid JSON, a key repeated in one object, or nesting too deep.
    """
    hint = f"give a JSON array such as {example}"
    too_deep = FormatError(
        f"the {what} nest too deeply to be read (JSON arrays or objects more than {MAX_DEPTH} "
        "levels inside each other)", file=file, hint=f"give a flat {hint.removeprefix('give a ')}")
    try:
        parsed = json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constants)
    except RecursionError:
        raise too_deep from None
    except DuplicateKey as dup:
        raise FormatError(
            f"the {what} repeat the key {dup.key!r} in one JSON object; {LAST_WINS}; nothing "
            "was applied",
            file=file, key=dup.key, hint=f"give each key once per object, as in {example}") from None
    except NotJsonNumber as constant:
        raise FormatError(
            f"the {what} hold {constant}, which is not a JSON number; nothing was applied",
            file=file, hint=f"write a finite number or a string; {hint}") from None
    except json.JSONDecodeError as exc:
        raise FormatError(
            f"the {what} are not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            file=file, hint=hint) from None
    except ValueError:  # the one other ValueError: an integer over int_max_str_digits
        digits = sys.get_int_max_str_digits()
        raise FormatError(
            f"the {what} hold an integer of more than {digits:,} digits, too long to read; "
            "nothing was applied",
            file=file, hint=f"write numbers of at most {digits:,} digits; {hint}") from None
    if _depth(parsed) > MAX_DEPTH:
        raise too_deep
    return parsed
