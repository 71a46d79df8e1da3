"""The canonical frontmatter reader decodes each value exactly as json.loads does: the same
value, or an error where loads raises one."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.format.entry import _json_value

PIECES = ['"', "\\", "[", "]", ",", " ", "\t", "\n", "\r", "\ufeff", "a", "é", "1", "-", ".",
          "e", "true", "null", "NaN", "Infinity", "{", "}", ":", "\\u00e9", "\\ud800", "\x00",
          '"x"', '["a", "b"]', "\u2028"]


def _outcome(decode, raw: str):  # type: ignore[no-untyped-def]
    try:
        value = decode(raw)
    except (ValueError, RecursionError):
        return "error"
    return ("value", type(value).__name__, json.dumps(value))


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=8).map("".join))
def test_every_string_decodes_as_json_loads_decodes_it(raw: str) -> None:
    assert _outcome(_json_value, raw) == _outcome(json.loads, raw)


@pytest.mark.parametrize("raw", [
    '"Token rotation"', '["auth", "jwt"]', "[]", '""', '"a" "b"', '"a",', ' "a"', '"a" ',
    "\ufeff\"a\"", "", "[" * 5000 + "]" * 5000, '"unterminated', "1e400", "-0", "tru",
])
def test_the_cases_that_matter(raw: str) -> None:
    assert _outcome(_json_value, raw) == _outcome(json.loads, raw)
