"""Token budgets of derived text (seed 000, byterover-cli.md §6-7) and the escalation ladder.

Every budget is counted with :func:`brv_vc.format.tokens.count_tokens`, the one counter.
Escalation follows seed 002 §4.1.1: a normal attempt, an aggressive one at 0.6x the budget,
then a deterministic prefix truncation that always fits, so generation always terminates.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from brv_vc.errors import BrvError
from brv_vc.format.tokens import count_tokens, truncate_to_tokens
from brv_vc.record import NamedTuple

ABSTRACT_TOKENS = 80
OVERVIEW_TOKENS = 1500
GHOST_CUE_TOKENS = 220
# _index.md body budget by condensation order: broader folders get a little more room.
INDEX_TOKENS = {0: 500, 1: 800, 2: 1000, 3: 1200}
INPUT_CHARS = 20_000  # source text given to a generator (seed 000 "truncated to 20,000")
GHOST_INPUT_CHARS = 8_000  # ghost cues read the first 8,000 chars (byterover-cli.md §7)
AGGRESSIVE_FACTOR = 0.6

NORMAL, AGGRESSIVE, TRUNCATED = "normal", "aggressive", "truncated"


class Fitted(NamedTuple):
    """Generated text that fits its budget, and the escalation level that produced it."""

    text: str
    level: str


def escalate(
    produce: Callable[[int, bool], str], budget: int, fallback: Callable[[], str]
) -> Fitted:
    """Runs the escalation ladder until the text fits ``budget`` tokens.

    Args:
        produce: ``produce(target_tokens, aggressive)`` returns a candidate text; it may
            raise :class:`BrvError` (a provider failure), which moves on to the next level.
        budget: the token budget the result must fit.
        fallback: the text to truncate when both attempts fail or overflow.

    Returns:
        The fitted text; ``level`` says which rung produced it.
    """
    squeezed = max(1, int(budget * AGGRESSIVE_FACTOR))
    attempts = ((NORMAL, budget, False), (AGGRESSIVE, squeezed, True))
    for level, target, aggressive in attempts:
        try:
            text = produce(target, aggressive).strip()
        except BrvError:
            continue
        if text and count_tokens(text) <= budget:
            return Fitted(text, level)
    return Fitted(truncate_to_tokens(fallback().strip(), budget), TRUNCATED)


class Deferred(Exception):
    """A provider call the refresh after a tree change cannot afford, or that failed there.

    Not a :class:`BrvError` on purpose: the escalation ladder must not turn it into an
    extractive text. The queue gives the claim back; the work waits for ``brv summarize``.
    """

    def __init__(self, reason: str, *, failed: bool) -> None:
        super().__init__(reason)
        self.reason = reason
        self.failed = failed


class TimeBudget:
    """The wall-time budget of a refresh's provider calls (monotonic clock, injectable).

    A provider call is made only when what is left covers its whole timeout: a refresh must
    never wait on a provider. The first failure is kept, so the rest of the refresh does
    not call a provider that just failed.
    """

    def __init__(self, seconds: float, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or time.monotonic
        self.deadline = self.clock() + seconds
        self.failure: str | None = None

    def remaining(self) -> float:
        """Seconds left (never negative)."""
        return max(0.0, self.deadline - self.clock())

    def affords(self, seconds: float) -> bool:
        """Whether ``seconds`` (a call's timeout, a retry's backoff) fit in what is left."""
        return seconds <= self.remaining()
