"""parse_entry's PyYAML-free fast path for canonical frontmatter agrees with its YAML path."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.errors import FormatError
from brv_vc.format.entry import Entry, _parse_canonical, _parse_yaml, serialize_entry
from brv_vc.index.docs import extract

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    title=text.filter(lambda t: t.strip() != ""),
    summary=text,
    tags=st.lists(text, max_size=4).map(tuple),
    related=st.lists(text, max_size=3).map(tuple),
    stamp=st.sampled_from(["2026-01-01T00:00:00Z", "", "2026-01-01", "not a date"]),
    body=text,
    extra=st.sampled_from([(), (("owner", "team-a"),), (("importance", 80),), (("n", [1, 2]),)]),
)
def test_the_fast_path_gives_exactly_what_the_yaml_path_gives(
    title: str,
    summary: str,
    tags: tuple[str, ...],
    related: tuple[str, ...],
    stamp: str,
    body: str,
    extra: tuple[tuple[str, object], ...],
) -> None:
    entry = Entry(title=title, summary=summary, tags=tags, related=related, created_at=stamp,
                  updated_at=stamp, body=body, extra=extra)
    source = serialize_entry(entry).decode("utf-8")
    fast = _parse_canonical(source)
    try:
        full = _parse_yaml(source, None, "stem")
    except FormatError:
        assert fast is None  # what the YAML path refuses, the fast path never accepts
        return
    if extra:
        assert fast is None  # unknown keys always take the YAML path (they are kept there)
    if fast is not None:
        assert fast == full


def test_non_canonical_frontmatter_takes_the_full_parser() -> None:
    hand = b"---\ntitle: Plain scalar title\ntags: [a, b]  # comment\n---\nbody\n"
    assert _parse_canonical(hand.decode()) is None
    doc = extract("a/b/c.md", hand)
    assert doc.title == "Plain scalar title"
    assert "a b" in doc.content
    assert _parse_canonical('---\ntitle: "x"\ntitle: "y"\n---\n') is None
    assert _parse_canonical('---\r\ntitle: "x"\r\n---\r\nbody\r\n') is None
    assert _parse_canonical('---\ntitle: "a\u2028b"\n---\n') is None  # YAML folds U+2028
