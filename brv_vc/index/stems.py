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
_stem_word: list[Callable[[str], str]] = []


def _stemmer() -> Callable[[str], str]:
    if not _stem_word:
        import Stemmer  # PyStemmer: imported on the first stem (~1 ms), not with the index

        # no cache of its own: the memo below is the one (a second would only hold memory)
        _stem_word.append(Stemmer.Stemmer("english", 0).stemWord)
    return _stem_word[0]


class _Memo(dict[str, str]):
    """word -> its stem; a word not seen yet is stemmed when first looked up.

    Looked up through ``map(memo.__getitem__, words)``: a known word costs one C dict
    lookup, and only a new word calls into Python (:meth:`__missing__`).
    """

    def __missing__(self, word: str) -> str:
        if len(self) >= MEMO:
            self.clear()
        stem = self[word] = _stemmer()(word)
        return stem


_memo = _Memo()


def words(text: str) -> list[str]:
    """The words of a text as FTS5's ``unicode61`` sees them (lowercase, no diacritics)."""
    if text.isascii():  # most text: one C pass (the same words as the rule below gives)
        return text.encode().translate(_ASCII).decode().split()
    lowered = text.lower()
    if not lowered.isascii():
        decomposed = unicodedata.normalize("NFKD", lowered)
        lowered = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _WORD.findall(lowered)


def stems(found: list[str]) -> list[str]:
    """The stem of each word of ``found`` (lowercase words, as :func:`words` gives them)."""
    return list(map(_memo.__getitem__, found))


def stem_of(word: str) -> str:
    """The indexed form of one word (a query term): its Snowball stem."""
    return stems(words(word) or [word])[0] if word else word


def indexed(text: str) -> str:
    """A text as the FTS5 table is given it: its words' stems, one space apart."""
    return " ".join(map(_memo.__getitem__, words(text)))
