"""Out-of-domain detection (seed 002 §4.2.2), calibrated on bench/eval_retrieval.py.

A question is out of domain when the tree holds too little of it: no result, or no result
among the top 10 holds at least ``OOD_COVER`` of the query's idf weight (words no entry
holds count with the highest idf), or the top score is under ``OOD_LOW``. Only for trees of
>= ``OOD_MIN_DOCS`` files (a handful of entries gives no meaningful idf). The thresholds come
from the false-positive rate on answerable questions and the true-positive rate on questions
about things the tree does not hold (docs/retrieval.md gives both).
"""

from __future__ import annotations

from collections.abc import Sequence

from brv_vc.index.postings import Postings

OOD_MIN_DOCS = 50
OOD_COVER = 0.3
OOD_LOW = 0.2
# A question is judged on its JUDGED heaviest terms (idf; a word no entry holds weighs the
# most): a 60-word request holds many ordinary words no single answer repeats, and judged on
# all of them it was flagged although its results were on topic. Up to JUDGED terms, every
# term counts, as before.
JUDGED = 12


def judged(weight: list[float], unmatched: int, highest: float) -> tuple[list[float], float]:
    """The matched terms' weights for the out-of-domain coverage, and their total.

    Only the ``JUDGED`` heaviest terms (matched or not) count; the others weigh 0.
    """
    if len(weight) + unmatched <= JUDGED:
        return weight, sum(weight) + unmatched * highest
    order = sorted(range(len(weight)), key=lambda i: -weight[i])
    kept = set(order[:max(0, JUDGED - unmatched)])
    out = [w if i in kept else 0.0 for i, w in enumerate(weight)]
    return out, sum(out) + min(unmatched, JUDGED) * highest


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
