"""The jsonschema-free frontmatter check never accepts what the schema rejects."""

from __future__ import annotations

import itertools
import json

from jsonschema import Draft202012Validator

from brv_vc.format.frontmatter_check import _STAMP, surely_valid
from brv_vc.resources import load_schema

SCHEMA = load_schema("frontmatter")
VALIDATOR = Draft202012Validator(SCHEMA)

VALUES = ["", "x", "Title", 0, 1.5, True, False, None, [], ["a", 1, True], ["a", None],
          [["nested"]], {"a": 1}, "2026-01-02", "2026-01-02T03:04:05Z", "2026-01-02 03:04",
          "2026-01-02T03:04:05.123+02:00", "yesterday", "2026-1-2", "2026-01-02\n"]


def test_the_fast_check_agrees_with_jsonschema_on_every_field_and_value() -> None:
    keys = ["title", "summary", "tags", "keywords", "related", "createdAt", "updatedAt"]
    accepted = 0
    for key, value in itertools.product(keys, VALUES):
        for base in ({"title": "T"}, {}):
            doc = {**base, key: value}
            if surely_valid(doc):
                accepted += 1
                assert VALIDATOR.is_valid(doc), doc
    assert accepted > 20  # it does answer the common cases itself


def test_it_says_valid_for_the_frontmatter_brv_writes() -> None:
    doc = {"title": "Token rotation", "summary": "Rotate keys.", "tags": ["auth"],
           "keywords": ["jwt"], "related": ["auth/jwt/x.md"],
           "createdAt": "2026-03-18T10:00:00Z", "updatedAt": "2026-03-18T10:00:00Z",
           "importance": 50}
    assert surely_valid(doc)
    assert VALIDATOR.is_valid(doc)


def test_the_schema_is_still_the_one_the_fast_check_mirrors() -> None:
    """A changed frontmatter schema must change surely_valid too (then update this test)."""
    assert set(SCHEMA["properties"]) == {"title", "summary", "tags", "keywords", "related",
                                         "createdAt", "updatedAt"}
    assert SCHEMA["required"] == ["title"]
    assert SCHEMA["additionalProperties"] is True
    stamp = SCHEMA["$defs"]["timestamp"]["anyOf"][2]["pattern"]
    assert stamp == _STAMP.pattern
    assert json.dumps(SCHEMA["$defs"]["stringList"], sort_keys=True) == json.dumps(
        {"anyOf": [{"type": "null"}, {"type": "array",
                                      "items": {"type": ["string", "number", "boolean"]}}]},
        sort_keys=True)
