"""The title boost's measure: how much of the question a result's title names.

FTS5's ``bm25()`` normalises a title match by the length of the whole document, so a
heading that names the question counts for less the longer its section is; ``search``
multiplies a result's score by ``1 + TITLE x`` :func:`title_share`.
"""

from __future__ import annotations

from brv_vc.index.terms import stem, tokens

# (stem, fuzzy alternatives, share of the matched terms' idf) of each matched query term
Named = list[tuple[str, tuple[str, ...], float]]


def title_terms(terms: list[str], alts: dict[str, tuple[str, ...]], unmatched: list[str],
                weight: list[float]) -> Named:
    """(stem, fuzzy alternatives, share of the matched terms' idf) of each matched term.

    A lone letter ("C") is never held by a title: as a prefix it would match every word.
    """
    matched = [t for t in terms if t not in unmatched]
    total = sum(weight) or 1.0
    return [(stem(t), alts.get(t, ()), w / total) for t, w in zip(matched, weight, strict=True)
            if len(t) > 1]


def title_share(title: str, named: Named) -> float:
    """The idf-weighted share of the matched query terms a title holds.

    A term is held as the index matches it: the word, its prefix, or a fuzzy alternative.
    (A term not even in the title's text is skipped before the title is split into words:
    50 titles a search.)
    """
    lowered = title.lower()
    words: set[str] | None = None
    held = 0.0
    for prefix, alternatives, share in named:
        if prefix not in lowered and not (alternatives and any(map(lowered.__contains__,
                                                                     alternatives))):
            continue
        words = set(tokens(lowered)) if words is None else words
        if any(w.startswith(prefix) or w in alternatives for w in words):
            held += share
    return held
