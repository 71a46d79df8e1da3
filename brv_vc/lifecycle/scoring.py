"""Lifecycle math, pure functions over :class:`Signals` (seed 000 "Scoring Metadata", seed 002 §3.2.3).

- importance in [0, 100], starts at 50; +3 per search hit, +5 per update, capped at 100;
  decays by 0.995 per idle day (applied lazily from ``scored_at``).
- recency = e^(-days/30) since the last update (about a 21-day half-life).
- maturity: draft -> validated at >= 65, -> core at >= 85; core -> validated below 60,
  validated -> draft below 35 (hysteresis, so scores near a boundary do not oscillate).
- search boost: draft x0.85, validated x1.0, core x1.15.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from brv_vc.clock import days_between
from brv_vc.record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_IMPORTANCE = 50.0
HIT_BONUS = 3.0
UPDATE_BONUS = 5.0
DAILY_DECAY = 0.995
RECENCY_TAU_DAYS = 30.0
MAX_IMPORTANCE = 100.0

DRAFT, VALIDATED, CORE = "draft", "validated", "core"
PROMOTE_VALIDATED = 65.0
PROMOTE_CORE = 85.0
DEMOTE_CORE = 60.0
DEMOTE_VALIDATED = 35.0
ARCHIVE_THRESHOLD = 35.0
MATURITY_BOOST = {DRAFT: 0.85, VALIDATED: 1.0, CORE: 1.15}


class Signals(NamedTuple):
    """Scoring signals of one entry, as stored in the sidecar.

    ``importance`` is the value at ``scored_at`` (epoch seconds); ``updated_at`` is the last
    curation update (the clock for recency).
    """

    importance: float = DEFAULT_IMPORTANCE
    maturity: str = DRAFT
    access_count: int = 0
    update_count: int = 0
    updated_at: float = 0.0
    scored_at: float = 0.0


def fresh(now: float) -> Signals:
    """Signals of a new entry: importance 50, draft, recency 1."""
    return Signals(updated_at=now, scored_at=now)


def seeded(legacy: Mapping[str, Any], updated_at: float | None, now: float) -> Signals:
    """Signals of an entry first seen with legacy frontmatter (older ByteRover wrote them there).

    ``legacy`` holds the well-typed keys among importance, maturity, accessCount and
    updateCount (see ``format.entry.legacy_signals``). Importance counts from ``now``: when
    ByteRover scored it is unknown, and decaying it from the entry's own date would make
    every adopted entry an archive candidate. Recency runs from ``updated_at`` (the entry's
    ``updatedAt``), else from ``now``; the stored ``recency`` value is a snapshot of an
    unknown day and is not used.
    """
    importance = min(MAX_IMPORTANCE, float(legacy.get("importance", DEFAULT_IMPORTANCE)))
    maturity = str(legacy.get("maturity", DRAFT))
    return Signals(
        importance=importance,
        maturity=next_maturity(maturity, importance),
        access_count=int(legacy.get("accessCount", 0)),
        update_count=int(legacy.get("updateCount", 0)),
        updated_at=min(now, updated_at) if updated_at is not None else now,
        scored_at=now,
    )


def decayed_importance(signals: Signals, now: float) -> float:
    """Importance at ``now``: the stored value times 0.995 per day since it was scored."""
    return float(signals.importance * DAILY_DECAY ** days_between(signals.scored_at, now))


def recency(signals: Signals, now: float) -> float:
    """e^(-days/30) since the last update, in (0, 1]."""
    return math.exp(-days_between(signals.updated_at, now) / RECENCY_TAU_DAYS)


def next_maturity(current: str, importance: float) -> str:
    """Applies the promotion and demotion rules (with hysteresis) until the tier is stable."""
    tier = current if current in MATURITY_BOOST else DRAFT
    while True:
        if tier == DRAFT:
            new = CORE if importance >= PROMOTE_CORE else VALIDATED if importance >= PROMOTE_VALIDATED else DRAFT
        elif tier == VALIDATED:
            new = CORE if importance >= PROMOTE_CORE else DRAFT if importance < DEMOTE_VALIDATED else VALIDATED
        else:
            new = VALIDATED if importance < DEMOTE_CORE else CORE
        if new == tier:
            return tier
        tier = new


def at(signals: Signals, now: float) -> Signals:
    """Returns the signals decayed to ``now`` with the maturity re-tiered (nothing stored)."""
    importance = decayed_importance(signals, now)
    return signals._replace(
        importance=importance,
        maturity=next_maturity(signals.maturity, importance),
        scored_at=max(now, signals.scored_at),
    )


def on_hits(signals: Signals, hits: int, now: float) -> Signals:
    """Applies ``hits`` search hits at ``now``: +3 importance and +1 access each."""
    current = at(signals, now)
    importance = min(MAX_IMPORTANCE, current.importance + HIT_BONUS * hits)
    return current._replace(
        importance=importance,
        maturity=next_maturity(current.maturity, importance),
        access_count=current.access_count + hits,
    )


def on_update(signals: Signals, now: float) -> Signals:
    """Applies one curation update at ``now``: +5 importance, recency back to 1."""
    current = at(signals, now)
    importance = min(MAX_IMPORTANCE, current.importance + UPDATE_BONUS)
    return current._replace(
        importance=importance,
        maturity=next_maturity(current.maturity, importance),
        update_count=current.update_count + 1,
        updated_at=now,
    )


def on_kept(signals: Signals, now: float) -> Signals:
    """A dream's prune keeps the entry: importance below the default starts again there.

    Other entries still link to it, so the dream keeps it; its importance starts again as
    the file's mtime restarts the staleness clock. Why (issue 37): a kept entry whose importance had decayed stayed a candidate, so every
    dream kept the same twenty again and never weighed the next.
    """
    current = at(signals, now)
    if current.importance >= DEFAULT_IMPORTANCE:
        return current
    return current._replace(importance=DEFAULT_IMPORTANCE,
                            maturity=next_maturity(current.maturity, DEFAULT_IMPORTANCE))


def merged(a: Signals, b: Signals, now: float) -> Signals:
    """Signals of two entries merged into one: max importance, summed counts, higher tier."""
    x, y = at(a, now), at(b, now)
    order = [DRAFT, VALIDATED, CORE]
    return Signals(
        importance=max(x.importance, y.importance),
        maturity=max(x.maturity, y.maturity, key=order.index),
        access_count=x.access_count + y.access_count,
        update_count=x.update_count + y.update_count,
        updated_at=max(x.updated_at, y.updated_at),
        scored_at=now,
    )


def _now(signals: Signals, now: float) -> tuple[float, float, float]:
    """(importance, recency, maturity boost) at ``now``: what ``at`` gives, without a copy."""
    importance = decayed_importance(signals, now)
    boost = MATURITY_BOOST[next_maturity(signals.maturity, importance)]
    return importance / MAX_IMPORTANCE, recency(signals, now), boost


def compound_score(relevance: float, signals: Signals, now: float) -> float:
    """Seed 002 Eq. 5 with ByteRover's weights: (0.6 bm25 + 0.2 importance + 0.2 recency) x boost.

    Args:
        relevance: the normalised BM25 score s/(1+s), in [0, 1).
        signals: the entry's stored signals; they are decayed to ``now`` before they count.
        now: epoch seconds.
    """
    return ranking(relevance, signals, now)[1]


_TOP_BOOST = max(MATURITY_BOOST.values())


def ranking(relevance: float, signals: Signals, now: float) -> tuple[float, float]:
    """(lifecycle share, ``compound_score``): what search computes per hit, decayed once.

    The share is the lifecycle signals as one number in [0, 1], search's tie-breaker:
    (importance / 100 + recency) / 2, times the maturity boost over the largest boost.
    """
    importance, fresh_share, boost = _now(signals, now)
    share = (0.5 * importance + 0.5 * fresh_share) * boost / _TOP_BOOST
    return share, (0.6 * relevance + 0.2 * importance + 0.2 * fresh_share) * boost


def is_archive_candidate(signals: Signals, now: float) -> bool:
    """Draft entries whose decayed importance fell below 35 may be archived (seed 000)."""
    current = at(signals, now)
    return current.maturity == DRAFT and current.importance < ARCHIVE_THRESHOLD
