"""The bound and the back-off of ``brv vc sync``'s retried push (its command's defaults too).

A leaf module: the click command reads the defaults without importing the sync services.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    import random

TRIES = 10
MAX_WAIT = 5.0  # seconds
# the first wait's ceiling, doubled after each rejection up to the longest wait: a rejected
# push costs a fetch and a merge (tens of ms), so the first retry need not wait long
FIRST_WAIT = 0.1


def backoff(attempt: int, max_wait: float, rng: random.Random) -> float:
    """The wait, in seconds, after the ``attempt``-th rejected push: half fixed, half random.

    The ceiling doubles each time (``FIRST_WAIT``, twice that...) up to ``max_wait``; the
    random half keeps teammates rejected together from retrying together again.
    """
    ceiling = min(max_wait, FIRST_WAIT * 2.0 ** (attempt - 1))
    return ceiling / 2 + rng.uniform(0, ceiling / 2)
