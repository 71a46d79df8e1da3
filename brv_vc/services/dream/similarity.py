"""Pairwise similarity over a domain's entries: rank-bm25's BM25, read through an index.

rank-bm25's Okapi IDF goes negative for a term in more than half of the documents (and a
two-entry domain has many), which makes scores of near-duplicates meaningless; the IDF is
replaced by Lucene's ``log(1 + (N - n + 0.5) / (n + 0.5))``, which is never negative (N at
least :data:`MIN_CORPUS`). A
score is normalised by the query document's score against itself, so identical entries
score 1.0 and the thresholds of seed 001 (0.5 link, 0.85 merge) read the same in any domain.

Why an index (issue 24): rank-bm25 scores a query by walking every document's word counts
in Python (``get_scores``), and a first dream at 100,000 entries asks 2,500-entry domains
once per entry. Here each word's BM25 weight in each document is computed once per corpus,
in one numpy expression that is rank-bm25's own, term for term, and kept as postings (word
-> documents holding it, with their weights). A query reads only the postings of its own
words and adds them per document in query order from zero, as ``get_scores`` adds them: the
same floats, bit for bit (tests/test_dream_candidates.py checks them against rank-bm25).
A pair of documents is scored from the document's own row (its words and weights).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
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
K1, B = 1.5, 0.75  # rank-bm25's BM25Okapi defaults


class _LuceneBM25(BM25Okapi):  # type: ignore[misc]
    def _calc_idf(self, nd: dict[str, int]) -> None:
        self.idf = {w: _idf(max(self.corpus_size, MIN_CORPUS), n) for w, n in nd.items()}


def _idf(size: int, n: int) -> float:
    return math.log(1 + (size - n + 0.5) / (n + 0.5))


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


Counted = tuple[Any, Any, int, list[int]]  # word ids, their counts, length, query ids


@dataclass
class Vocab:
    """Word ids and each document's word counts, shared by the corpora of one domain.

    A domain's entries go into one corpus per group of changed entries (consolidate's
    CHUNK); counting their words once serves every group, and their token lists need not
    be kept (~30 MB for a 2,500-entry domain). ``key`` names a document (its path): the
    same key always stands for the same words.
    """

    ids: dict[str, int] = field(default_factory=dict)
    _counted: dict[str, Counted] = field(default_factory=dict)

    def __contains__(self, key: str) -> bool:
        return key in self._counted

    def count(self, key: str, doc: Sequence[str] | None) -> Counted:
        """A document's word ids (first-seen order), counts, length and query's word ids.

        ``doc`` may be None once ``key`` is counted.
        """
        made = self._counted.get(key)
        if made is not None:
            return made
        if doc is None:
            raise KeyError(key)
        counts: dict[str, int] = {}
        for word in doc or ["_"]:  # rank-bm25 is given "_" for an empty document
            counts[word] = counts.get(word, 0) + 1
        ids = self.ids
        made = (np.array([ids.setdefault(w, len(ids)) for w in counts], dtype=np.int32),
                np.array(list(counts.values()), dtype=np.int32), max(len(doc), 1),
                [ids[w] for w in _query(doc)])
        self._counted[key] = made
        return made


@dataclass
class Corpus:
    """Documents under one BM25 model; index i is ``paths[i]``.

    Scores are rank-bm25's (see the module docstring). ``docs`` are token lists; with a
    shared ``vocab`` a document already counted under its path may be given as None.
    """

    paths: list[str]
    docs: Sequence[Sequence[str] | None]
    vocab: Vocab | None = None

    def __post_init__(self) -> None:
        vocab = self.vocab if self.vocab is not None else Vocab()
        counted = [vocab.count(p, d) for p, d in zip(self.paths, self.docs, strict=True)]
        size = len(self.docs)
        lengths = [c[2] for c in counted]
        avgdl = sum(lengths) / size if size else 1.0
        starts = np.zeros(size + 1, dtype=np.int64)
        np.cumsum([len(c[0]) for c in counted], out=starts[1:])
        empty = np.zeros(0, dtype=np.int32)
        word = np.concatenate([c[0] for c in counted]) if counted else empty
        freq = np.concatenate([c[1] for c in counted]).astype(np.int64) if counted else empty
        doc = np.repeat(np.arange(size, dtype=np.int32), np.diff(starts))
        width = len(vocab.ids)
        held = np.bincount(word, minlength=width)  # documents holding each word
        idf = np.zeros(width)
        for w in np.flatnonzero(held).tolist():  # math.log, as rank-bm25 (not numpy's log)
            idf[w] = _idf(max(size, MIN_CORPUS), int(held[w]))
        doc_len = np.array(lengths, dtype=np.int64)[doc]
        # rank-bm25's get_batch_scores, operation for operation, for every (doc, word) pair
        weight = idf[word] * (freq * (K1 + 1) / (freq + K1 * (1 - B + B * doc_len / avgdl)))
        del freq, doc_len, idf
        self._rows = starts  # document i's words and weights: [starts[i], starts[i + 1])
        self._word, self._weight = word, weight
        order = np.argsort(word, kind="stable")  # postings: documents in index order
        self._post_doc, self._post_weight = doc[order], weight[order]
        del order, doc
        self._post_start = np.zeros(width + 1, dtype=np.int64)
        np.cumsum(held, out=self._post_start[1:])
        self._queries = [c[3] for c in counted]
        self._row_maps: dict[int, dict[int, float]] = {}
        self._pairs: dict[tuple[int, int], float] = {}  # (query, doc) -> score

    def _query(self, i: int) -> list[int]:
        return self._queries[i]

    def _row(self, i: int) -> dict[int, float]:
        row = self._row_maps.get(i)
        if row is None:
            lo, hi = int(self._rows[i]), int(self._rows[i + 1])
            row = self._row_maps[i] = dict(zip(self._word[lo:hi].tolist(),
                                               self._weight[lo:hi].tolist(), strict=True))
        return row

    def _scores(self, query: int) -> Any:
        """The query document's score in every document (``get_scores``), from postings.

        ``bincount`` adds each document's weights in the order given, from zero: query
        order, as ``get_scores`` adds them (a document without the word adds 0.0).
        """
        start = self._post_start
        words = self._query(query)
        docs = [self._post_doc[start[w]:start[w + 1]] for w in words]
        weights = [self._post_weight[start[w]:start[w + 1]] for w in words]
        if not docs:
            return np.zeros(len(self.docs))
        return np.bincount(np.concatenate(docs), weights=np.concatenate(weights),
                           minlength=len(self.docs))

    def _score(self, query: int, doc: int) -> float:
        key = (query, doc)
        if key not in self._pairs:
            row = self._row(doc)
            total = 0.0
            for w in self._query(query):
                total += row.get(w, 0.0)
            self._pairs[key] = total
        return self._pairs[key]

    def _base(self, i: int) -> float:
        """A document's score against itself (the normaliser), computed on first use."""
        return self._score(i, i)

    def sim(self, a: int, b: int) -> float:
        """How much of ``a`` ``b`` covers, in [0, 1] (1: b holds all of a's terms alike)."""
        base = self._base(a)
        return 0.0 if base <= 0 else min(1.0, self._score(a, b) / base)

    def pair(self, a: int, b: int) -> float:
        """Symmetric similarity: the smaller of both directions (both cover the other)."""
        return min(self.sim(a, b), self.sim(b, a))

    def nearest(self, a: int, limit: int = 5) -> list[tuple[int, float]]:
        """The ``limit`` documents most similar to ``a`` (itself excluded), best first.

        Only documents sharing a word with ``a``'s query score above zero (the postings
        hold no other); equal scores come in path order.
        """
        scores = self._scores(a)
        base = self._pairs.setdefault((a, a), float(scores[a]))
        if base <= 0:
            return []
        held = np.flatnonzero(scores > 0)
        if len(held) > limit + 1:  # the best few and all that tie with the last of them
            floor = np.partition(scores[held], len(held) - limit - 1)[len(held) - limit - 1]
            held = held[scores[held] >= floor]
        paths = self.paths
        ranked = sorted(held.tolist(), key=lambda i: (-scores[i], paths[i]))
        return [(i, min(1.0, float(scores[i]) / base)) for i in ranked if i != a][:limit]


def best_against(docs: Sequence[Sequence[str]], query: list[str]) -> float:
    """The best normalised score of an outside document against ``docs`` (0 if none).

    rank-bm25 itself over the few documents given (synthesize: the syntheses written and
    this dream's); no :class:`Corpus` (its postings serve pairs inside one corpus).
    """
    if not docs:
        return 0.0
    given = [list(d or ["_"]) for d in docs]
    q = _query(query)
    model = _LuceneBM25(given)
    others = [float(s) for s in model.get_scores(q)]
    probe = _LuceneBM25([*given, query or ["_"]])
    base = float(probe.get_batch_scores(q, [len(given)])[0])
    return 0.0 if base <= 0 else min(1.0, max(others) / base)
