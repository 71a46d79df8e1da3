"""Out-of-domain detection (seed 002 §4.2.2), calibrated on bench/eval_retrieval.py.

A question is out of domain when the tree holds too little of it: no result, or no result
among the top 10 holds at least ``OOD_COVER`` of the query's idf weight (words no entry
holds count with the highest idf), or the top score is under ``OOD_LOW``. A question of more
than ``JUDGED`` terms is judged on its words as if it had ``JUDGED`` of them (:func:`judged`).
Only for trees of >= ``OOD_MIN_DOCS`` files (a handful of entries gives no meaningful idf).
The thresholds come from the false-positive rate on answerable questions and the
true-positive rate on questions about things the tree does not hold (docs/retrieval.md
gives both).
"""

from __future__ import annotations

from collections.abc import Sequence

from brv_vc.index.postings import Postings

OOD_MIN_DOCS = 50
OOD_COVER = 0.3
OOD_LOW = 0.2
# A long question's words that the tree holds are spread over several entries, each holding a
# few: one answer is expected to hold a share of JUDGED/n of them, not of all n, so their
# weight counts JUDGED/n. Words no entry holds count whole, whatever the length: the tree knows
# nothing of them, the plainest sign of a question outside it. Up to JUDGED terms nothing
# changes. Until issue 26 a long question was judged on its 12 heaviest terms, which put the
# words no entry holds first: 42 of 221 answerable questions of more than 8 terms flagged;
# now 23, while 136 of 184 long unanswerable ones stay flagged (141 before; docs/retrieval.md).
JUDGED = 8


def judged(cover: float, weight: list[float], unmatched: int, highest: float) -> float:
    """The best result's coverage ``cover`` (over all terms) as the out-of-domain rule judges it.

    ``weight``: the idf of each term some entry holds; ``unmatched``: the terms none holds,
    each weighing ``highest``. Past ``JUDGED`` terms the held terms' weight counts
    ``JUDGED / n`` in the denominator (capped at 1).
    """
    terms = len(weight) + unmatched
    if terms <= JUDGED:
        return cover
    known, unknown = sum(weight), unmatched * highest
    whole = known + unknown
    share = known * JUDGED / terms + unknown
    return min(1.0, cover * whole / share) if share > 0 else cover


def coverage_of(rowid: int, lists: Sequence[Postings], weight: list[float], total: float) -> float:
    """The idf-weighted share of the query's terms that document ``rowid`` holds.

    A term too common to list whole (in more than ``postings.TOP`` documents) counts as held:
    the tree plainly knows the word.
    """
    if total <= 0:
        return 0.0
    held = (w for found, w in zip(lists, weight, strict=True)
            if not found.whole or rowid in found.scores)
    return sum(held) / total


def out_of_domain(corpus: int, top: float, coverage: float) -> bool:
    """True when a tree of >= OOD_MIN_DOCS files holds too little of the question."""
    if corpus < OOD_MIN_DOCS:
        return False
    return coverage < OOD_COVER or top < OOD_LOW
