"""A folder's key terms weigh entries' and sub-folders' terms exactly as the one-loop form did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.summary.documents import ChildLine, FolderInput
from brv_vc.summary.folder_text import KEY_TERMS, key_terms


def _reference(folder: FolderInput) -> list[str]:
    weight: dict[str, float] = {}
    for child in folder.children:
        for rank, term in enumerate(child.terms):
            key = term.lower()
            share = 1.0 if child.name.endswith(".md") else (KEY_TERMS - rank) * 0.5
            weight[key] = weight.get(key, 0.0) + max(share, 0.5)
    return [t for t, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:KEY_TERMS]]


_TERMS = st.lists(st.sampled_from(["Cache", "cache", "retry", "RETRY", "queue", "auth", "db",
                                   "token", "latency", "jitter", "x"]), max_size=12)
_CHILD = st.builds(
    lambda folder, i, terms: ChildLine(f"c{i}/" if folder else f"e{i}.md", f"t{i}", "", tuple(terms)),
    st.booleans(), st.integers(0, 99), _TERMS)


@settings(max_examples=300, deadline=None)
@given(st.lists(_CHILD, max_size=25))
def test_same_key_terms_as_the_one_loop_form(children: list[ChildLine]) -> None:
    folder = FolderInput("d/t", 1, "", tuple(children))
    assert key_terms(folder) == _reference(folder)
