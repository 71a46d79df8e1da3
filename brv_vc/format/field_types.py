"""The typed reading of one front-matter field: a string, a list of strings, a timestamp.

Each refuses a value of another type with brv's words (which field, what it got, how to
write it) as a :class:`FormatError`; ``entry.parse_entry`` reads every known field here.
"""

from __future__ import annotations

from brv_vc.clock import parse_iso
from brv_vc.errors import FormatError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from brv_vc.format.frontmatter import RawField

def is_iso(text: str) -> bool:
    """True for a timestamp ``clock.parse_iso`` reads."""
    try:
        parse_iso(text)
    except ValueError:
        return False
    return True


def _describe(value: Any) -> str:
    kind = {dict: "a mapping", list: "a list", bool: "a boolean", int: "a number", float: "a number"}
    return kind.get(type(value), type(value).__name__)


def string(raw: RawField, file: str | None) -> str:
    """The field as a string (empty when unset); a mapping, list or non-text refused."""
    if raw.value is None:
        return ""
    if not isinstance(raw.text, str) or isinstance(raw.value, (dict, list)):
        raise FormatError(
            f"field '{raw.key}' must be a string, got {_describe(raw.value)}",
            file=file,
            key=raw.key,
            hint=f'write it as {raw.key}: "some text"',
        )
    return raw.text


def string_list(raw: RawField, file: str | None) -> tuple[str, ...]:
    """The field as a list of strings (() when empty); anything else refused."""
    if raw.value is None:
        return ()
    if not isinstance(raw.value, list) or not isinstance(raw.text, tuple):
        got = _describe(raw.value) if not isinstance(raw.value, list) else "a list of non-strings"
        raise FormatError(
            f"field '{raw.key}' must be a list of strings, got {got}",
            file=file,
            key=raw.key,
            hint=f'write it as {raw.key}: ["first", "second"]',
        )
    return raw.text


def timestamp(raw: RawField, file: str | None) -> str:
    """The field as an ISO 8601 timestamp string (empty when unset); anything else refused."""
    text = string(raw, file)
    if text:
        try:
            parse_iso(text)
        except ValueError:
            raise FormatError(
                f"field '{raw.key}' is not an ISO 8601 timestamp: {text!r}",
                file=file,
                key=raw.key,
                hint=f'write it as {raw.key}: "2025-03-18T10:00:00Z"',
            ) from None
    return text
