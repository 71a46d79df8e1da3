"""Agent mode (seed 002: the agent's own model decides): ``brv dream scan`` and ``apply``.

``scan`` hands the calling agent what the detectors found, with the entries' text and the
decisions it may take; the agent answers with operations of the same shapes, which
``brv dream apply`` validates (:func:`load_decisions`) and runs through :func:`run.dream`:
the same gates, lock, log and review as any dream.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brv_vc.services import derived
from brv_vc.services.dream import consolidate, prune, synthesize
from brv_vc.services.dream.decisions import ALLOWED, op_files, preview
from brv_vc.services.dream.hits import StoredHits
from brv_vc.services.dream.passes import changed_entries, cross_hits
from brv_vc.services.dream.run import DEFAULT_BUDGET
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

PREVIEW_CHARS = 4000
@dataclass(frozen=True)
class ScanResult:
    """Candidates for the agent to decide on, each with content and allowed decisions."""

    candidates: tuple[dict[str, Any], ...]
    allowed: dict[str, tuple[str, ...]]
    stopped: str = ""  # budget: the candidates found within it (the rest at the next scan)


def scan(project: Project, now: datetime, *, budget: float = DEFAULT_BUDGET,
         clock: Callable[[], float] = time.monotonic) -> ScanResult:
    """Runs the detectors without changing anything and returns their candidates.

    Within ``budget`` seconds, as a dream: past it, the candidates found so far (from the
    cursor of the last cut dream, which a scan reads and never moves).
    """
    start = clock()
    state = dreamstate.read_state(project)
    hints = list(state.get("pendingMerges", []))
    entries = entry_paths(project)
    opened = derived.open_synced(project)
    stopped = ""

    def over() -> bool:
        nonlocal stopped
        stopped = stopped or ("budget" if clock() - start > budget else "")
        return bool(stopped)

    try:
        changed = changed_entries(project, entries, state, hints)
        hits = StoredHits(opened.conn)
        found = consolidate.detect(project, entries, changed, hints,
                                   lambda rel, entry: cross_hits(hits, rel, entry.title), over)
        if not over():
            found += synthesize.detect(project)
        if not over():
            found += prune.decide(project, opened.conn,
                                  prune.candidates(project, entries, now, (), opened.conn))
    finally:
        opened.close()
    out = []
    for number, op in enumerate(found):
        out.append({"candidate": number, "operation": op["operation"],
                    "allowed": list(ALLOWED[op["operation"]]), "suggested": op,
                    "content": {p: preview(project, p, PREVIEW_CHARS) for p in op_files(op)}})
    return ScanResult(tuple(out), ALLOWED, stopped)

