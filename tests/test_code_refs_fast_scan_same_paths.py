"""The code-reference scan finds exactly the paths the whole-text regex scan finds, in order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.index import code_refs
from brv_vc.index.code_refs import FILES, MAX_REFS, TEXT, clean, files_list


def _reference(body: str) -> tuple[tuple[str, str], ...]:
    """The scan as it was: every pattern run over the whole text."""
    refs: dict[str, str] = {}
    for item in files_list(body):
        path = clean(item)
        if path:
            refs.setdefault(path, FILES)
    text = code_refs._URL.sub(" ", body)
    for match in code_refs._TICKED.finditer(text):
        path = clean(match.group(1))
        if path and "/" in match.group(1).strip():
            refs.setdefault(path, TEXT)
    for match in code_refs._PLAIN.finditer(code_refs._TICKED.sub(" ", text)):
        path = clean(match.group(1))
        if path and "/" in match.group(1):
            refs.setdefault(path, TEXT)
        if len(refs) >= MAX_REFS:
            break
    return tuple(list(refs.items())[:MAX_REFS])


_PIECES = st.sampled_from([
    "src", "a", "/", "./", "../", ".", "-", "_", "@", ":", "~", "$", "`", " ", "\n", "\t",
    "\u00a0", "\u2003", "é", "WWW.", "www.", "http://", "HTTPS://x", "://", ":12", "#L3",
    "**Files:**", "- ", ",", "(", ")", "*", "'", '"', "x.py", "and/or", "\x1c",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=40).map("".join))
def test_same_paths_as_the_whole_text_scan(body: str) -> None:
    assert code_refs.extract(body) == _reference(body)


def test_same_paths_on_a_realistic_entry_and_at_the_cap() -> None:
    body = ("## Raw Concept\n**Files:**\n- src/a.py\n\nSee `lib/b.rs:3`, https://x.org/c/d, "
            "www.site.org/e/f and ./docs/g.md,and/or src/h-i/j_k.py.\n")
    assert code_refs.extract(body) == _reference(body)
    assert dict(code_refs.extract(body))["docs/g.md"] == TEXT
    many = " ".join(f"dir/file{i}.py" for i in range(MAX_REFS + 50))
    assert code_refs.extract(many) == _reference(many)
    assert len(code_refs.extract(many)) == MAX_REFS
