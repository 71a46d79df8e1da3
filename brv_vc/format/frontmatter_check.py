"""A jsonschema-free yes/no check of entry frontmatter against ``frontmatter.schema.json``.

jsonschema costs ~100-400 ms to import and build a validator, more than a whole git hook
may add to a commit (DESIGN.md: +150 ms). Nearly every entry a hook validates is valid, so
:func:`surely_valid` answers "valid" for the schema's plain cases in microseconds, and
anything else (an invalid value, a type it does not know) goes to jsonschema, which gives
the message. It may only ever say True where jsonschema accepts too:
``tests/test_frontmatter_fast_check.py`` checks both agree, including on the schema's text.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# the "timestamp" definition of the schema, verbatim
_STAMP = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?"
                    r"([Zz]|[+-][0-9]{2}:?[0-9]{2})?$")
_LISTS = ("tags", "keywords", "related")
_STAMPS = ("createdAt", "updatedAt")


def _number(value: Any) -> bool:
    return type(value) in (int, float)  # JSON Schema: a boolean is no number


def _scalar(value: Any) -> bool:
    return type(value) in (str, bool) or _number(value)


def surely_valid(values: Any) -> bool:
    """True when ``values`` is valid frontmatter; False: ask jsonschema (it may be valid)."""
    if type(values) is not dict:
        return False
    title = values.get("title")
    if not ((type(title) is str and title) or type(title) is bool or _number(title)):
        return False
    if "summary" in values and not (values["summary"] is None or _scalar(values["summary"])):
        return False
    for key in _LISTS:
        items = values.get(key)
        if items is not None and not (type(items) is list and all(map(_scalar, items))):
            return False
    for key in _STAMPS:
        stamp = values.get(key)
        if stamp is not None and not (type(stamp) is str and (
                stamp == "" or _STAMP.search(stamp))):
            return False
    return True
