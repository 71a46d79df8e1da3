"""The four eligibility gates of seed 001, checked in order: time, activity, queue, lock.

``--force`` skips the first three, never the lock (it is taken by :mod:`run`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from brv_vc.clock import parse_iso
from brv_vc.summary import queue as summary_queue
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

MIN_HOURS = 12.0
MIN_CURATIONS = 3


@dataclass(frozen=True)
class Gate:
    """One gate's verdict: its name, whether it passed, why not, and the figures it used."""

    gate: str  # time | activity | queue | lock
    passed: bool
    reason: str = ""
    figures: dict[str, Any] = field(default_factory=dict)


def time_gate(state: dict[str, Any], now: datetime) -> Gate:
    """At least 12 hours since the last dream."""
    last = state.get("lastDreamAt")
    if not last:
        return Gate("time", True, figures={"hoursSinceLastDream": None, "minimum": MIN_HOURS})
    try:
        hours = (now - parse_iso(str(last))).total_seconds() / 3600.0
    except ValueError:
        return Gate("time", True, figures={"hoursSinceLastDream": None, "minimum": MIN_HOURS})
    figures = {"hoursSinceLastDream": round(hours, 2), "minimum": MIN_HOURS}
    if hours < MIN_HOURS:
        return Gate("time", False, f"Too recent ({hours:.1f}h < {MIN_HOURS:g}h)", figures)
    return Gate("time", True, figures=figures)


def activity_gate(state: dict[str, Any]) -> Gate:
    """At least 3 curations since the last dream."""
    count = int(state.get("curationsSinceDream", 0))
    figures = {"curationsSinceDream": count, "minimum": MIN_CURATIONS}
    if count < MIN_CURATIONS:
        return Gate("activity", False,
                    f"Not enough activity ({count} < {MIN_CURATIONS} curations since the last "
                    "dream)", figures)
    return Gate("activity", True, figures=figures)


def queue_gate(project: Project) -> Gate:
    """The summary work queue (abstracts and overviews to write) is empty."""
    conn = open_state(project)
    try:
        counts = summary_queue.counts(conn)
    finally:
        conn.close()
    waiting = counts.get(summary_queue.PENDING, 0) + counts.get(summary_queue.CLAIMED, 0)
    figures = {"queued": waiting}
    if waiting:
        return Gate("queue", False,
                    f"Queue not empty ({waiting} summary task(s) waiting; run 'brv summarize')",
                    figures)
    return Gate("queue", True, figures=figures)


def check(project: Project, state: dict[str, Any], now: datetime) -> list[Gate]:
    """Gates 1-3 in order, stopping at the first that fails."""
    out: list[Gate] = []
    checks: tuple[Callable[[], Gate], ...] = (
        lambda: time_gate(state, now), lambda: activity_gate(state), lambda: queue_gate(project))
    for gate in checks:
        verdict = gate()
        out.append(verdict)
        if not verdict.passed:
            break
    return out
