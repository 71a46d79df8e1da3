"""The index's PyYAML-free reader of canonical frontmatter agrees with parse_entry."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.format.entry import Entry, parse_entry, serialize_entry
from brv_vc.index.docs import _canonical, extract

text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    title=text.filter(lambda t: t.strip() != ""),
    summary=text,
    tags=st.lists(text, max_size=4).map(tuple),
    related=st.lists(text, max_size=3).map(tuple),
    body=text,
    extra=st.sampled_from([(), (("owner", "team-a"),), (("importance", 80),), (("n", [1, 2]),)]),
)
def test_canonical_reader_matches_the_full_parser(
    title: str,
    summary: str,
    tags: tuple[str, ...],
    related: tuple[str, ...],
    body: str,
    extra: tuple[tuple[str, object], ...],
) -> None:
    entry = Entry(
        title=title,
        summary=summary,
        tags=tags,
        related=related,
        updated_at="2026-01-01T00:00:00Z",
        body=body,
        extra=extra,
    )
    data = serialize_entry(entry)
    fast = _canonical(data.decode("utf-8"))
    try:
        full = parse_entry(data)
    except Exception:
        return  # the full parser refuses it; the fast path must then not be the only reader
    if fast is None:
        return
    assert fast.relations() == full.relations()
    assert fast.text_for_search() == full.text_for_search()
    assert fast.title == full.title


def test_non_canonical_frontmatter_takes_the_full_parser() -> None:
    hand = b"---\ntitle: Plain scalar title\ntags: [a, b]  # comment\n---\nbody\n"
    assert _canonical(hand.decode()) is None
    doc = extract("a/b/c.md", hand)
    assert doc.title == "Plain scalar title"
    assert "a b" in doc.content
    dup = '---\ntitle: "x"\ntitle: "y"\n---\n'
    assert _canonical(dup) is None
