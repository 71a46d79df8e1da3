"""Property tests of the knowledge file format (STYLE item 10, dulwich's property_tests).

For generated valid entries: ``parse(serialize(e)) == e`` and the bytes are stable; for
arbitrary bytes, ``parse_entry`` raises nothing but ``FormatError``.
"""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.clock import format_iso
from brv_vc.errors import FormatError
from brv_vc.format.entry import FIELD_ORDER, LEGACY_FIELDS, Entry, parse_entry, serialize_entry

# Text a knowledge file may hold: any Unicode except NUL (NUL marks a binary file) and
# surrogates (not encodable as UTF-8).
TEXT = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40
)
NONEMPTY = TEXT.filter(lambda s: s != "")
TIMESTAMP = st.one_of(
    st.just(""),
    st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(9998, 1, 1)).map(
        lambda d: format_iso(d.replace(tzinfo=UTC))
    ),
)
SCALAR = st.one_of(
    TEXT,
    st.integers(-(10**12), 10**12),
    st.booleans(),
    st.none(),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
VALUE = st.recursive(
    SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(NONEMPTY, inner, max_size=3)
    ),
    max_leaves=6,
)
RESERVED = set(FIELD_ORDER) | LEGACY_FIELDS
EXTRA = st.lists(
    st.tuples(NONEMPTY.filter(lambda k: k not in RESERVED), VALUE),
    max_size=4,
    unique_by=lambda kv: kv[0],
)
BODY = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=300
)

entries = st.builds(
    Entry,
    title=NONEMPTY,
    summary=TEXT,
    tags=st.lists(TEXT, max_size=4).map(tuple),
    keywords=st.lists(TEXT, max_size=4).map(tuple),
    related=st.lists(TEXT, max_size=4).map(tuple),
    created_at=TIMESTAMP,
    updated_at=TIMESTAMP,
    body=BODY,
    extra=EXTRA.map(tuple),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(entries)
def test_serialize_then_parse_gives_the_entry_back(entry: Entry) -> None:
    data = serialize_entry(entry)
    again = parse_entry(data, file="x.md")
    assert again == entry
    assert serialize_entry(again) == data


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_raise_only_format_error(data: bytes) -> None:
    with contextlib.suppress(FormatError):
        parse_entry(data, file="x.md", stem="x")


FRONTMATTER_LINE = st.sampled_from(
    [
        "title: ",
        "summary: ",
        "tags: ",
        "keywords: [",
        "related:\n  - ",
        "createdAt: ",
        "updatedAt: '",
        "importance: ",
        "? ",
        "- ",
        "&a ",
        "*a",
        "!!binary ",
        "{",
        "[",
        ": ",
        "\t",
        "key: |\n  ",
        "x: >-\n ",
        "'",
        '"',
        "%YAML 1.1\n",
        "---\n",
        "...\n",
        "#",
        "\n",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(FRONTMATTER_LINE, TEXT), max_size=12), BODY)
def test_yaml_like_frontmatter_raises_only_format_error(parts: list[str], body: str) -> None:
    text = "---\n" + "".join(parts) + "\n---\n" + body
    try:
        entry = parse_entry(text.encode("utf-8"), file="x.md", stem="x")
    except FormatError:
        return
    # whatever loads must serialize and load back to the same entry
    assert parse_entry(serialize_entry(entry)) == entry


@pytest.mark.parametrize(
    "key", ["a: b", "true", "null", "123", "- x", "#c", "on", "key with space"]
)
def test_unknown_keys_that_need_quoting_round_trip(key: str) -> None:
    entry = Entry(title="T", extra=((key, "v"),))
    assert parse_entry(serialize_entry(entry)) == entry
