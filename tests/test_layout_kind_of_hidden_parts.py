"""kind_of calls a path with any hidden part (a name starting with a dot) OTHER, as a part-by-part test does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.tree import layout as L
from brv_vc.tree.layout import Kind, kind_of


def _reference(relpath: str) -> Kind:
    """kind_of as written before, testing every part."""
    parts = relpath.split("/")
    name = parts[-1]
    if parts[0] == L.ARCHIVE_DIR:
        if name.endswith(L.STUB_SUFFIX):
            return Kind.STUB
        return Kind.FULL if name.endswith(L.FULL_SUFFIX) else Kind.OTHER
    if any(p.startswith(".") for p in parts):
        return Kind.OTHER
    if name == L.MANIFEST_FILE and len(parts) == 1:
        return Kind.MANIFEST
    if not name.endswith(".md"):
        return Kind.OTHER
    if name == L.SUMMARY_FILE:
        return Kind.SUMMARY
    if name.endswith(L.ABSTRACT_SUFFIX):
        return Kind.ABSTRACT
    if name.endswith(L.OVERVIEW_SUFFIX):
        return Kind.OVERVIEW
    if name == L.CONTEXT_FILE:
        return Kind.CONTEXT if len(parts) >= 2 else Kind.OTHER
    return Kind.ENTRY if 3 <= len(parts) <= L.MAX_DEPTH + 1 else Kind.OTHER

_PARTS = st.sampled_from([
    ".git", ".hidden.md", "..", ".", "a", "domain", "topic", "_archived", "context.md",
    "_index.md", "entry.md", "x.abstract.md", "y.stub.md", "z.full.md", "a.b", "", "_manifest.json",
])


@settings(max_examples=500, deadline=None)
@given(st.lists(_PARTS, min_size=1, max_size=6).map("/".join))
def test_hidden_parts_as_a_part_by_part_test(path: str) -> None:
    assert kind_of(path) is _reference(path)


def test_examples() -> None:
    assert kind_of("domain/topic/.draft.md") is Kind.OTHER
    assert kind_of(".git/a/b.md") is Kind.OTHER
    assert kind_of("domain/.topic/entry.md") is Kind.OTHER
    assert kind_of("domain/topic/entry.md") is Kind.ENTRY
    assert kind_of("domain/topic/a.b.md") is Kind.ENTRY
