"""A dream's proposals a team can review: held back, queued best first, bounded per dream.

Trigger: with review on, every operation that waits for review (seed 001's rules,
``apply.needs_review``: merges, archives, low-confidence changes) is a proposal. Why: a
first dream on an imported docs tree queued 164 of them at once (issue 37), more than a
reviewer decides. Outcome: the detectors' proposals of a phase are held until the phase
ends, then the most confident are applied and queued, up to ``dream.max_proposals`` per
dream (default :data:`DEFAULT_MAX`); the rest are logged ``waiting`` and their entries are
decided again by the next dream (``waitingFiles`` in dream state). An agent's own decisions
(``brv dream apply``) and dreams with review off are not held.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from brv_vc.tree.project import Project

Op = dict[str, Any]
DEFAULT_MAX = 20  # what a reviewer decides in one sitting (the web page renders 20 diffs)
STATE_KEY = "waitingFiles"  # dream state: the entries whose proposals wait for the next dream


def configured_max(project: Project) -> int:
    """``dream.max_proposals`` of ``.brv/config.yaml``, else :data:`DEFAULT_MAX`."""
    from brv_vc.tree.config import load_config

    for key, value in load_config(project).raw:
        if key == "dream" and isinstance(value, dict) and "max_proposals" in value:
            return int(value["max_proposals"])
    return DEFAULT_MAX


def files_of(op: Op) -> list[str]:
    """The entries to decide again when ``op`` waits.

    Syntheses and archives need none: every dream finds them again from the whole tree.
    """
    if op["action"] == "MERGE":
        return [op["target"], *op["sources"]]
    if op["action"] == "TEMPORAL_UPDATE":
        return [str(f) for f in (op["file"], op.get("newer")) if f]
    if op["action"] == "CROSS_REFERENCE":
        return list(op["files"])
    return []


class Bound:
    """The held proposals of the running phase and how many this dream queued."""

    def __init__(self, limit: int | None, is_proposal: Callable[[Op], bool]) -> None:
        self.limit = limit  # None: nothing is held (review off, an agent's decisions)
        self.is_proposal = is_proposal
        self.queued = 0
        self.held: list[Op] = []
        self.waiting: list[Op] = []
        self.logged = 0  # how many of ``waiting`` are in the log

    def hold(self, ops: Sequence[Op]) -> list[Op]:
        """The operations to apply now; proposals are kept for :meth:`take`."""
        if self.limit is None:
            return list(ops)
        now = []
        for op in ops:
            if op["action"] != "SKIP" and self.is_proposal(op):
                self.held.append(op)
            else:
                now.append(op)
        return now

    def take(self, stopped: bool) -> list[Op]:
        """The held proposals to apply, most confident first, within the bound.

        The rest wait (all of them when the dream was ``stopped``): see :meth:`wait`.
        """
        held, self.held = self.held, []
        # stable: equal confidence keeps the order the pass found them in
        held.sort(key=lambda op: -float(op.get("confidence", 1.0)))
        room = 0 if stopped or self.limit is None else max(0, self.limit - self.queued)
        self.queued += min(room, len(held))
        self.wait(held[room:])
        return held[:room]

    def wait(self, ops: Sequence[Op]) -> None:
        """Proposals left for the next dream (not applied)."""
        self.waiting.extend(ops)

    def unlogged(self) -> list[Op]:
        """The proposals that began waiting since the last call, as log operations.

        Their status is ``waiting``; nothing of them changed.
        """
        from brv_vc.services.dream.apply import summary_of

        fresh, self.logged = self.waiting[self.logged:], len(self.waiting)
        return [{**op, "status": "waiting", "changes": [],
                 "message": f"{summary_of(op)} (waits for the next dream)"} for op in fresh]

    def files(self) -> list[str]:
        """The entries the next dream decides again."""
        return sorted({f for op in self.waiting for f in files_of(op)})
