"""In-memory pairwise similarity over a domain's entries with rank-bm25 (issue 12).

rank-bm25's Okapi IDF goes negative for a term in more than half of the documents (and a
two-entry domain has many), which makes scores of near-duplicates meaningless; the IDF is
replaced by Lucene's ``log(1 + (N - n + 0.5) / (n + 0.5))``, which is never negative (N at
least :data:`MIN_CORPUS`). A
score is normalised by the query document's score against itself, so identical entries
score 1.0 and the thresholds of seed 001 (0.5 link, 0.85 merge) read the same in any domain.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rank_bm25 import BM25Okapi

from brv_vc.format.entry import Entry
from brv_vc.index.terms import tokens

QUERY_TERMS = 40
# Why: in a domain of two entries every shared word is "in half the corpus" and weighs
# little, so two copies that differ in one title word looked unrelated. A domain smaller
# than this is weighed as if it had this many entries (the word counts stay its own).
MIN_CORPUS = 50  # a document's query: its most frequent significant terms
MERGE_AT = 0.85
LINK_AT = 0.5


class _LuceneBM25(BM25Okapi):  # type: ignore[misc]
    def _calc_idf(self, nd: dict[str, int]) -> None:
        size = max(self.corpus_size, MIN_CORPUS)
        self.idf = {w: math.log(1 + (size - n + 0.5) / (n + 0.5)) for w, n in nd.items()}


def words(entry: Entry) -> list[str]:
    """The words an entry is compared by: title (twice: it names the topic), tags, body."""
    text = " ".join([entry.title, entry.title, entry.summary, " ".join(entry.tags),
                     " ".join(entry.keywords), entry.body])
    return tokens(text)


def _query(doc: Sequence[str]) -> list[str]:
    counts: dict[str, int] = {}
    for word in doc:
        counts[word] = counts.get(word, 0) + 1
    ranked = sorted(counts, key=lambda w: (-counts[w], w))
    return ranked[:QUERY_TERMS]


@dataclass
class Corpus:
    """Documents (token lists) under one BM25 model; index i is ``paths[i]``."""

    paths: list[str]
    docs: list[list[str]]

    def __post_init__(self) -> None:
        self._bm25: Any = _LuceneBM25([d or ["_"] for d in self.docs])
        self._queries = [_query(d) for d in self.docs]
        self._self: dict[int, float] = {}

    def _base(self, i: int) -> float:
        """A document's score against itself (the normaliser), computed on first use."""
        if i not in self._self:
            self._self[i] = self._score(i, i)
        return self._self[i]

    def _score(self, query: int, doc: int) -> float:
        return float(self._bm25.get_batch_scores(self._queries[query], [doc])[0])

    def sim(self, a: int, b: int) -> float:
        """How much of ``a`` ``b`` covers, in [0, 1] (1: b holds all of a's terms alike)."""
        base = self._base(a)
        return 0.0 if base <= 0 else min(1.0, self._score(a, b) / base)

    def pair(self, a: int, b: int) -> float:
        """Symmetric similarity: the smaller of both directions (both cover the other)."""
        return min(self.sim(a, b), self.sim(b, a))

    def nearest(self, a: int, limit: int = 5) -> list[tuple[int, float]]:
        """The ``limit`` documents most similar to ``a`` (itself excluded), best first."""
        base = self._base(a)
        if base <= 0:
            return []
        scores = self._bm25.get_scores(self._queries[a])
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], self.paths[i]))
        out = []
        for i in order:
            if i != a and scores[i] > 0:
                out.append((i, min(1.0, float(scores[i]) / base)))
            if len(out) == limit:
                break
        return out

    def best_against(self, query: list[str]) -> float:
        """The best normalised score of an outside document against this corpus (0 if empty)."""
        if not self.docs:
            return 0.0
        q = _query(query)
        others = [float(s) for s in self._bm25.get_scores(q)]
        probe = _LuceneBM25([*[d or ["_"] for d in self.docs], query or ["_"]])
        base = float(probe.get_batch_scores(q, [len(self.docs)])[0])
        return 0.0 if base <= 0 else min(1.0, max(others) / base)
