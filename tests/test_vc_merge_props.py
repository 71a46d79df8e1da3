"""Properties of the knowledge merge: a one-sided change is taken as is, and a merge of
well-formed entries never raises and always parses back (or carries markers)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from vc_helpers import entry_bytes

from brv_vc.format.entry import parse_entry
from brv_vc.vc.merge3 import merge_entries

words = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(str.strip).filter(bool)
entries = st.builds(
    lambda title, tags, narrative, facts: entry_bytes(title, tags=tuple(dict.fromkeys(tags)),
                                                      narrative=narrative, facts=facts),
    words, st.lists(words, max_size=3), st.text(alphabet="xyz \n", max_size=30),
    st.lists(words, max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(entries, entries)
def test_a_change_on_one_side_is_taken(base: bytes, changed: bytes) -> None:
    for ours, theirs in ((changed, base), (base, changed)):
        result = merge_entries(base, ours, theirs)
        assert result.conflicts == ()
        merged, expected = parse_entry(result.data), parse_entry(changed)
        assert (merged.title, set(merged.tags)) == (expected.title, set(expected.tags))
        assert merged.body.strip() == expected.body.strip()


@settings(max_examples=60, deadline=None)
@given(entries, entries, entries)
def test_any_three_entries_merge_without_raising(base: bytes, ours: bytes, theirs: bytes) -> None:
    result = merge_entries(base, ours, theirs)
    if result.conflicts:
        assert b"<<<<<<< ours\n" in result.data
        assert b">>>>>>> theirs\n" in result.data
    else:
        parse_entry(result.data)
