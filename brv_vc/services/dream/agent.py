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

from brv_vc.index.dream_hits import StoredHits
from brv_vc.services import derived
from brv_vc.services.dream import consolidate, prune, synthesize
from brv_vc.services.dream.decisions import ALLOWED, op_files, preview
from brv_vc.services.dream.passes import SCAN_KEY, changed_entries, cross_hits
from brv_vc.services.dream.run import DEFAULT_BUDGET
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

PREVIEW_CHARS = 4000


@dataclass(frozen=True)
class ScanResult:
    """Candidates for the agent to decide on, each with content and allowed decisions.

    ``cursor``: where the consolidate pass stands once these candidates are applied
    (``brv dream apply`` moves the dream's cursor there): ``{"after", "since"}`` when the
    scan was cut before the pass ended, None when it ended.
    """

    candidates: tuple[dict[str, Any], ...]
    allowed: dict[str, tuple[str, ...]]
    stopped: str = ""  # budget: the candidates found within it (the rest at the next scan)
    cursor: dict[str, Any] | None = None


def scan(project: Project, now: datetime, *, budget: float = DEFAULT_BUDGET,
         clock: Callable[[], float] = time.monotonic) -> ScanResult:
    """Runs the detectors without changing the tree and returns their candidates.

    Within ``budget`` seconds, as a dream: past it, the candidates found so far. It starts
    where the last dream's consolidate pass stopped (its cursor) and records in dream state
    how far it got (``scanCursor``), so that ``brv dream apply`` of these decisions moves
    the cursor there and the next scan or dream continues after them (issue 24).
    """
    start = clock()
    state = dreamstate.read_state(project)
    hints = list(state.get("pendingMerges", []))
    entries = entry_paths(project)
    opened = derived.open_synced(project)
    stopped = ""
    begun: dict[str, Any] | None = state.get("consolidateCursor")
    last = begun["after"] if begun else ""

    def over() -> bool:
        nonlocal stopped
        stopped = stopped or ("budget" if clock() - start > budget else "")
        return bool(stopped)

    found: list[dict[str, Any]] = []
    try:
        changed = changed_entries(project, entries, state, hints)
        hits = StoredHits(opened.conn)
        for path, ops in consolidate.steps(
                project, entries, changed, hints,
                lambda rel, entry: cross_hits(hits, rel, entry.title), over):
            found += ops
            last = max(last, path or "")
        cut = over()
        if not cut:
            found += synthesize.detect(project, opened.conn, over)
        if not over():
            stale = prune.candidates(project, entries, now, (), opened.conn, over)
            if not over():
                found += prune.decide(project, opened.conn, stale)
    finally:
        opened.close()
    since = begun["since"] if begun else state.get("lastDreamWall")
    cursor = {"after": last, "since": since} if cut else None
    record = {"from": begun, "wall": state.get("lastDreamWall"), "to": cursor}
    dreamstate.update_state(project, lambda s: s.update({SCAN_KEY: record}))
    out = []
    for number, op in enumerate(found):
        # a SKIP's text is left out: nothing to decide, and at 100,000 entries a first scan
        # has tens of thousands of them (4,000 characters each)
        shown = [] if op["action"] == "SKIP" else op_files(op)
        out.append({"candidate": number, "operation": op["operation"],
                    "allowed": list(ALLOWED[op["operation"]]), "suggested": op,
                    "content": {p: preview(project, p, PREVIEW_CHARS) for p in shown}})
    return ScanResult(tuple(out), ALLOWED, stopped, cursor)
