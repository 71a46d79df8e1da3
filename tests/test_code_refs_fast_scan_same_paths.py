"""The code-reference scan finds exactly the paths the whole-text regex scan finds, in order."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.index import code_refs
from brv_vc.index.code_refs import FILES, MAX_REFS, TEXT, clean, files_list


def _reference(body: str) -> tuple[tuple[str, str], ...]:
    """The scan run over the whole text: every pattern at every position, no prefilter.

    The passes are extract's (ticked, quoted and escaped paths may hold spaces: issue 38);
    only the skips by fixed parts and the slash-word split of the plain scan are left out.
    """
    refs: dict[str, str] = {}
    for item in files_list(body):
        path = clean(item)
        if path:
            refs.setdefault(path, FILES)
    text = code_refs._URL.sub(" ", body)
    for match in code_refs._TICKED.finditer(text):
        path = clean(match.group(1), quoted=True)
        if path and "/" in match.group(1).strip():
            refs.setdefault(path, TEXT)
    text = code_refs._TICKED.sub(" ", text)
    for match in code_refs._QUOTED.finditer(text):
        inner = match.group(1)
        path = clean(inner, quoted=True) if " " in inner and "/" in inner else None
        if path:
            refs.setdefault(path, TEXT)
    text = code_refs._QUOTED.sub(
        lambda m: " " if " " in m.group(1) and "/" in m.group(1) else m.group(0), text)
    for match in code_refs._ESCAPED.finditer(text):
        path = clean(match.group(0)) if "\\ " in match.group(0) else None
        if path:
            refs.setdefault(path, TEXT)
    text = code_refs._ESCAPED.sub(lambda m: " " if "\\ " in m.group(0) else m.group(0), text)
    for match in code_refs._PLAIN.finditer(text):
        path = clean(match.group(1))
        if path and "/" in match.group(1):
            refs.setdefault(path, TEXT)
        if len(refs) >= MAX_REFS:
            break
    return tuple(list(refs.items())[:MAX_REFS])


_PIECES = st.sampled_from([
    "src", "a", "/", "./", "../", ".", "-", "_", "@", ":", "~", "$", "`", " ", "\n", "\t",
    "\u00a0", "\u2003", "é", "WWW.", "www.", "http://", "HTTPS://x", "://", ":12", "#L3",
    "**Files:**", "- ", ",", "(", ")", "*", "'", '"', "x.py", "and/or", "\x1c", "\\ ",
    # line breaks other than \n (the plain scan splits lines first): each is also whitespace
    "\r", "\x0b", "\x0c", "\x85", "\u2028", "\u2029",
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
