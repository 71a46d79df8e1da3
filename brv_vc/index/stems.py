"""The index's one stem rule: Snowball's English stemmer (Porter2), applied in Python.

The FTS5 table is contentless and tokenised by plain ``unicode61``: the writer hands it text
whose words are already stemmed (:func:`indexed`), and every query phrase is built from
:func:`stem_of` of its word (``terms.phrases``), so a document and a question always agree.
Until issue 37 the stems were FTS5's built-in ``porter``'s; Snowball's is the stemmer of the
stemmed BM25 brv is measured against, with the revised English rules ("fairly" and "fair",
"regularly" and "regular" meet; "generous" and "generate" stay apart). PyStemmer is the C
build of the Snowball library; a stem is remembered per distinct word (``MEMO`` words at
most), so a build stems each word once.

Words are what FTS5's ``unicode61`` tokenizer (``remove_diacritics 2``) would see:
lowercased, diacritics removed, runs of letters and digits (``_`` splits them).
"""

from __future__ import annotations

import unicodedata

from brv_vc.pattern import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

_WORD = lazy(r"[^\W_]+")
# ASCII bytes to themselves lowercased if a letter or digit, else to a space: for ASCII text,
# ``translate`` then ``split`` gives exactly the words ``_WORD`` finds in the lowered text
_ASCII = bytes(ord(chr(c).lower()) if chr(c).isalnum() else 32 for c in range(128)) + b" " * 128
MEMO = 100_000  # distinct words remembered (~12 MB at most); past it the memo starts again
_memo: dict[str, str] = {}
_stem_words: list[Callable[[list[str]], list[str]]] = []


def words(text: str) -> list[str]:
    """The words of a text as FTS5's ``unicode61`` sees them (lowercase, no diacritics)."""
    if text.isascii():  # most text: one C pass (the same words as the rule below gives)
        return text.encode().translate(_ASCII).decode().split()
    lowered = text.lower()
    if not lowered.isascii():
        decomposed = unicodedata.normalize("NFKD", lowered)
        lowered = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _WORD.findall(lowered)


def _stemmer() -> Callable[[list[str]], list[str]]:
    if not _stem_words:
        import Stemmer  # PyStemmer: imported on the first stem (~1 ms), not with the index

        _stem_words.append(Stemmer.Stemmer("english").stemWords)
    return _stem_words[0]


def _learn(found: list[str]) -> None:
    """Remembers the stems of the words of ``found`` not yet in the memo (one bulk call)."""
    memo = _memo
    new = {w for w in found if w not in memo}
    if len(memo) + len(new) > MEMO:
        memo.clear()
        new = set(found)
    fresh = list(new)
    memo.update(zip(fresh, _stemmer()(fresh), strict=True))


def stems(found: list[str]) -> list[str]:
    """The stem of each word of ``found`` (lowercase words, as :func:`words` gives them)."""
    try:
        return list(map(_memo.__getitem__, found))
    except KeyError:  # a word not seen yet (past the first entries of a build, rare)
        _learn(found)
        return list(map(_memo.__getitem__, found))


def stem_of(word: str) -> str:
    """The indexed form of one word (a query term): its Snowball stem."""
    return stems(words(word) or [word])[0] if word else word


def indexed(text: str) -> str:
    """A text as the FTS5 table is given it: its words' stems, one space apart."""
    found = words(text)
    try:
        return " ".join(map(_memo.__getitem__, found))
    except KeyError:
        _learn(found)
        return " ".join(map(_memo.__getitem__, found))
