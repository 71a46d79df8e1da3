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
MEMO = 100_000  # distinct words remembered (~12 MB at most); past it the memo starts again
_memo: dict[str, str] = {}
_stem_words: list[Callable[[list[str]], list[str]]] = []


def words(text: str) -> list[str]:
    """The words of a text as FTS5's ``unicode61`` sees them (lowercase, no diacritics)."""
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


def stems(found: list[str]) -> list[str]:
    """The stem of each word of ``found`` (lowercase words, as :func:`words` gives them)."""
    memo = _memo
    new = [w for w in set(found) if w not in memo]
    if new:
        if len(memo) + len(new) > MEMO:
            memo.clear()
            new = list(set(found))
        memo.update(zip(new, _stemmer()(new), strict=True))
    return [memo[w] for w in found]


def stem_of(word: str) -> str:
    """The indexed form of one word (a query term): its Snowball stem."""
    return stems(words(word) or [word])[0] if word else word


def indexed(text: str) -> str:
    """A text as the FTS5 table is given it: its words' stems, one space apart."""
    return " ".join(stems(words(text)))
