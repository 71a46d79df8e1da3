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
# Why: a word's scores in every document are kept for the next query holding it, but at
# 2,500 entries a domain (100,000 in the tree) the kept vectors of its ~6,000 words took
# 120 MB (issue 24: peak memory <= 300 MB). The least recently used go past this many bytes;
# a word asked again is computed again over the documents holding it (the same floats).
TERM_BYTES = 40 << 20
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
    """Documents (token lists) under one BM25 model; index i is ``paths[i]``.

    The model is built once per corpus and every score is rank-bm25's own float. A word's
    score in every document is kept for the next query that holds it (a dream asks ~40 words
    of each of hundreds of documents, and common words recur): ``get_batch_scores`` over the
    documents holding the word, zero elsewhere (what ``get_scores`` gives a document without
    it). A query's scores are those added in query order from zero, as ``get_scores`` adds
    them, so they are the same floats. A score against a single document whose words are not
    all kept is ``get_batch_scores`` for it (and the query's own, the normaliser, at once).
    """

    paths: list[str]
    docs: list[list[str]]

    def __post_init__(self) -> None:
        self._bm25: Any = _LuceneBM25([d or ["_"] for d in self.docs])
        self._queries: dict[int, list[str]] = {}
        self._pairs: dict[tuple[int, int], float] = {}  # (query, doc) -> score
        self._terms: dict[str, Any] = {}  # word -> its score in every document
        self._postings: dict[str, list[int]] | None = None  # word -> documents holding it
        self._by_path: list[int] | None = None  # the documents in path order

    def _query(self, i: int) -> list[str]:
        if i not in self._queries:
            self._queries[i] = _query(self.docs[i])
        return self._queries[i]

    def _term(self, word: str) -> Any:
        kept = self._terms.pop(word, None)
        if kept is not None:
            self._terms[word] = kept  # the most recently used go last
            return kept
        if word not in self._terms:
            if self._postings is None:
                self._postings = {}
                for i, counts in enumerate(self._bm25.doc_freqs):
                    for w in counts:
                        self._postings.setdefault(w, []).append(i)
            scores = self._bm25.get_scores([])  # rank-bm25's zeros
            holding = self._postings.get(word)
            if holding:
                scores[holding] = self._bm25.get_batch_scores([word], holding)
            while self._terms and len(self._terms) * 8 * len(self.docs) >= TERM_BYTES:
                del self._terms[next(iter(self._terms))]  # the least recently used
            self._terms[word] = scores
        return self._terms[word]

    def _scores(self, query: int) -> Any:
        """The query document's score in every document (``get_scores``)."""
        scores = self._bm25.get_scores([])  # rank-bm25's zeros, as get_scores starts
        for word in self._query(query):
            scores += self._term(word)
        return scores

    def _base(self, i: int) -> float:
        """A document's score against itself (the normaliser), computed on first use."""
        return self._score(i, i)

    def _score(self, query: int, doc: int) -> float:
        key = (query, doc)
        if key not in self._pairs:
            words = self._query(query)
            if all(w in self._terms for w in words):
                total = 0.0
                for w in words:
                    total += float(self._terms[w][doc])
                self._pairs[key] = total
            else:
                ids = [doc] if (query, query) in self._pairs else list(dict.fromkeys([doc, query]))
                for i, score in zip(ids, self._bm25.get_batch_scores(words, ids), strict=True):
                    self._pairs[(query, i)] = float(score)
        return self._pairs[key]

    def sim(self, a: int, b: int) -> float:
        """How much of ``a`` ``b`` covers, in [0, 1] (1: b holds all of a's terms alike)."""
        base = self._base(a)
        return 0.0 if base <= 0 else min(1.0, self._score(a, b) / base)

    def pair(self, a: int, b: int) -> float:
        """Symmetric similarity: the smaller of both directions (both cover the other)."""
        return min(self.sim(a, b), self.sim(b, a))

    def nearest(self, a: int, limit: int = 5) -> list[tuple[int, float]]:
        """The ``limit`` documents most similar to ``a`` (itself excluded), best first.

        Equal scores come in path order.
        """
        scores = self._scores(a)
        base = self._pairs.setdefault((a, a), float(scores[a]))
        if base <= 0:
            return []
        if self._by_path is None:
            self._by_path = sorted(range(len(self.paths)), key=self.paths.__getitem__)
        by_path = self._by_path
        out: list[tuple[int, float]] = []
        # best first; a stable sort of the path-ordered scores keeps ties in path order
        for k in (-scores[by_path]).argsort(kind="stable").tolist():
            i = by_path[k]
            if scores[i] <= 0 or len(out) == limit:
                break
            if i != a:
                out.append((i, min(1.0, float(scores[i]) / base)))
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
