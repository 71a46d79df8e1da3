"""Fusing the lexical and the semantic ranking: weighted reciprocal rank, with a guard.

Reciprocal-rank fusion (Cormack et al. 2009) adds ``1 / (K + rank)`` from each ranking, so
neither lane's score scale matters; the semantic lane's share is ``WEIGHT``. Fused naively
the lane can lose what the lexical ranking had right (issue 40 measured -3.6 nDCG points on
one set), so a strong lexical match (every query word held by its best result, and a high
relevance) keeps its top ``GUARD`` results in place; the lane only fills in below them.
``WEIGHT`` and ``STRONG`` were chosen leave-one-set-out by ``bench/eval_hybrid.py``.
"""

from __future__ import annotations

K = 60  # the constant of Cormack et al.; larger flattens the head of each ranking
# The semantic lane's share against the lexical ranking's 1.0, and the guard, chosen on all
# nine sets of bench/eval_hybrid.py (wordllama, the ranking defaults of k1/b 1.2/0.75): 0.1,
# no guard, the best mean gain among the points never worse on any set, and the point every
# leave-one-set-out fold picks from the other eight (R@5
# +0.031 paraphrase, +0.008 tldr, +0.000 project, +0.013 locomo, +0.052 pyfaq, +0.000 rustfaq,
# +0.022 debian, +0.012 manpages, +0.018 pycode; nDCG@10 +0.035, +0.015, +0.017, +0.003,
# +0.036, +0.001, +0.035, +0.016, +0.010). 0.05, chosen against the old ranking, now loses
# one of project's 58 questions from the top 5 (R@5 0.888 -> 0.871).
WEIGHT = 0.1
STRONG = 2.0  # lexical top relevance (s/(1+s), at most 1) from which a match is strong: off
GUARD = 1  # results of a strong lexical match that keep their place
# The cosine from which the lane's best entry counts as found: a question the lexical ranking
# calls out of domain (its words in no entry) is in domain when the lane found an entry this
# close. wordllama over all 7,188 tldr pages: the paraphrased questions' best cosine is
# >= 0.386 for 9 in 10 of them; LoCoMo's questions (conversations: out of domain there) stay
# <= 0.222 for 9 in 10. An endpoint's model has its own scale: set for the offline one.
FOUND = 0.3


def strong(coverage: float, top_relevance: float, strong_from: float = STRONG) -> bool:
    """Whether the lexical ranking's best result holds the query well enough to keep its place."""
    return coverage >= 0.999 and top_relevance >= strong_from


def fuse(lexical: list[str], semantic: list[str], *, weight: float = WEIGHT,
         guarded: bool = False, guard: int = GUARD) -> list[str]:
    """The fused order of the paths of both rankings.

    Args:
        lexical: paths, best first.
        semantic: paths, best first.
        weight: the semantic ranking's share (the lexical one's is 1).
        guarded: a strong lexical match: its first ``guard`` paths keep their place.
        guard: how many.

    Returns:
        Every path of either ranking once, best first (ties: lexical order, then path).
    """
    score: dict[str, float] = {}
    for rank, path in enumerate(lexical):
        score[path] = score.get(path, 0.0) + 1.0 / (K + rank + 1)
    for rank, path in enumerate(semantic):
        score[path] = score.get(path, 0.0) + weight / (K + rank + 1)
    place = {path: rank for rank, path in enumerate(lexical)}
    kept = lexical[:guard] if guarded else []
    rest = sorted((p for p in score if p not in kept),
                  key=lambda p: (-score[p], place.get(p, len(place)), p))
    return [*kept, *rest]
