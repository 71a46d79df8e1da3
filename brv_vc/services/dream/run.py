"""``brv dream``: gates, lock, the three operations within a budget, the log and the state.

One code path for every engine: the detectors (default), or decisions handed in by an
agent (``brv dream apply``), go through :func:`apply.apply_op` one by one. After each
operation the log's journal gets it (see ``dreamlog``), the budget and the cancel flag are
checked, so a budget overrun or a Ctrl-C keeps the finished operations and the log says
``partial``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from brv_vc.clock import format_iso
from brv_vc.errors import BrvError
from brv_vc.services import derived, review
from brv_vc.services.dream import (
    dreamlog,
    gates,
    lock,
    passes,
    proposals,
    provider,
    prune,
    synthesize,
)
from brv_vc.services.dream.apply import Context, Op, apply_op, logged, needs_review
from brv_vc.tree import dreamstate, writelock
from brv_vc.tree.config import LlmSettings
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

DEFAULT_BUDGET = 300.0
SYNTHESIZED = "synthesizedWall"  # dream state: when the last whole synthesize pass ended
PRUNED = "prunedAt"  # dream state: when the last whole prune pass ended (wall, clock)
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True)
class DreamResult:
    """What ``brv dream`` did: skipped at a gate, or a dream with its log."""

    status: str  # skipped | completed | partial | error
    id: str | None = None
    gate: gates.Gate | None = None  # the gate that stopped it
    gates: tuple[gates.Gate, ...] = ()
    summary: dict[str, int] = field(default_factory=dict)
    operations: tuple[dict[str, Any], ...] = ()  # every operation but the detectors' SKIPs
    stopped: str = ""  # budget | cancelled | "" (ran to the end)
    problems: tuple[str, ...] = ()
    waiting: int = 0  # proposals past the bound, left for the next dream
    max_proposals: int | None = None  # the bound (None: not bounded)
    # the SKIPs (decisions to change nothing), counted: ``operations`` leaves the detectors'
    # out (an agent's are kept: one result per decision), and the log keeps each with its
    # reason (``brv dream --log ID``). At 100,000 entries a first dream makes ~100,000 of
    # them; held to the end they took it over 300 MB (issue 37)
    skipped: int = 0

    @property
    def line(self) -> str:
        """``3 consolidated | 1 synthesized | 2 pruned``."""
        return dreamlog.summary_line(self.summary)


def new_id() -> str:
    """``drm-<ms>`` from the wall clock (unique per machine; a log never moves)."""
    return f"drm-{int(time.time() * 1000)}"


def dream(project: Project, now: datetime, *, force: bool = False,
          budget: float = DEFAULT_BUDGET, should_stop: Callable[[], bool] = lambda: False,
          progress: Progress | None = None, decisions: Sequence[Op] | None = None,
          dream_id: str | None = None, trigger: str = "cli",
          clock: Callable[[], float] = time.monotonic,
          llm: LlmSettings | None = None, max_proposals: int | None = None) -> DreamResult:
    """Runs one dream if the gates allow (see the module docstring).

    Args:
        project: the project.
        now: the clock (BRV_NOW in tests): timestamps, decay and staleness.
        force: skip the time, activity and queue gates (never the lock).
        budget: seconds for the whole dream; finished operations are kept past it.
        should_stop: polled between operations (Ctrl-C, ``--cancel``).
        progress: called as (phase, done, total).
        decisions: operations decided by an agent (validated), instead of the detectors.
        dream_id: the id to use (``--detach`` picks it before the process starts).
        trigger: cli | agent | detach, kept in the log.
        clock: monotonic seconds, for the budget.
        llm: the provider: it decides on the detectors' candidates (see ``provider``).
        max_proposals: proposals queued for review per dream (default: the config's
            ``dream.max_proposals``, else 20); the rest wait (see ``proposals``).
    """
    state = dreamstate.read_state(project)
    checked = [] if force else gates.check(project, state, now)
    if checked and not checked[-1].passed:
        return DreamResult("skipped", gate=checked[-1], gates=tuple(checked))
    dream_id = dream_id or new_id()
    held = lock.acquire(project, dream_id, now)
    if held is not None:
        verdict = gates.Gate("lock", False,
                             f"Another dream is running (pid {held.pid}, {held.dream_id})",
                             {"pid": held.pid, "dreamId": held.dream_id})
        return DreamResult("skipped", gate=verdict, gates=(*checked, verdict))
    try:
        _recover(project)
        return _run(project, now, state, dream_id, trigger, budget, should_stop, progress,
                    decisions, clock, (*checked, gates.Gate("lock", True)), llm, max_proposals)
    finally:
        lock.release(project)


def _recover(project: Project) -> None:
    """Marks logs of dreams killed mid-way partial (or error when they did nothing)."""
    for name in dreamlog.ids(project):
        if dreamlog.status(project, name) != dreamlog.PROCESSING:
            continue  # the head alone: a first dream's log at 100,000 entries is 39 MB
        try:
            dreamlog.settle_killed(project, name)
        except BrvError:
            continue


def _run(project: Project, now: datetime, state: dict[str, Any], dream_id: str, trigger: str,
         budget: float, should_stop: Callable[[], bool], progress: Progress | None,
         decisions: Sequence[Op] | None, clock: Callable[[], float],
         passed: tuple[gates.Gate, ...], llm: LlmSettings | None,
         max_proposals: int | None) -> DreamResult:
    start = clock()
    log: dict[str, Any] = {
        "id": dream_id, "trigger": trigger, "status": dreamlog.PROCESSING,
        "startedAt": format_iso(now), "pid": os.getpid(),
        "stateBefore": {k: state.get(k) for k in
                        ("curationsSinceDream", "lastDreamAt", "lastDreamLogId",
                         "lastDreamWall", "totalDreams", "consolidateCursor")},
        "summary": {},
        "engine": "agent" if decisions is not None else "llm" if llm else "default",
    }
    dreamlog.write(project, {**log, dreamlog.JOURNAL: True})  # operations: the journal
    opened = derived.open_synced(project)
    ctx = Context(project, now, dream_id, opened.conn, review.is_enabled(project))
    limit = None
    if ctx.review_on and decisions is None:
        limit = proposals.configured_max(project) if max_proposals is None else max_proposals
    bound = proposals.Bound(limit, lambda op: needs_review(ctx, op))
    stopped = ""
    problems: list[str] = []
    # what the journal has but the detectors' SKIPs, which are only counted; an agent's
    # SKIPs are kept: its answer has one result per decision, in order (its list is in memory)
    done_ops: list[Op] = []
    skipped = recorded = 0

    def record(done: list[Op]) -> None:
        nonlocal skipped, recorded
        recorded += len(done)
        for op in done:
            if dreamlog.is_skip(op):
                skipped += 1
                if decisions is None:
                    continue
            done_ops.append(op)

    def over() -> str:
        if should_stop():
            return "cancelled"
        return "budget" if clock() - start > budget else ""

    def run_all(phase: str, ops: Sequence[Op], held: bool = True) -> str:
        if llm is not None and decisions is None and held:
            ops = provider.refine(llm, project, phase, ops, problems)
            if should_stop():  # cancelled while the provider was thinking
                return "cancelled"
        if held:
            ops = bound.hold(ops)
        try:
            number = 0
            while number < len(ops):
                # a run of SKIPs changes nothing: one step (a first dream at 100,000 entries
                # is mostly SKIPs, and a lock and a journal write each cost ~2 ms)
                end = number + 1
                while (ops[number]["action"] == "SKIP" and end < len(ops)
                       and ops[end]["action"] == "SKIP"):
                    end += 1
                with writelock.hold(project):  # the operation and its journal line: one step
                    done = [apply_op(ctx, op) for op in ops[number:end]]
                    record(done)
                    dreamlog.append(project, dream_id, *done,
                                    durable=any(d["changes"] for d in done))
                    logged(ctx)
                number = end
                if progress is not None:
                    progress(phase, number, len(ops))
                why = over()
                if why:
                    return why
            return ""
        finally:
            problems.extend(ctx.flush())

    def settle(phase: str, why: str) -> str:
        """The phase's held proposals: the best applied, the rest logged waiting."""
        best = bound.take(bool(why))
        if best:  # proposals, never a SKIP: each one done is in done_ops
            before = len(done_ops)
            why = run_all(phase, best, held=False)
            bound.wait(best[len(done_ops) - before:])  # cut by the budget
        waiting = bound.unlogged()
        if waiting:
            with writelock.hold(project):
                record(waiting)
                dreamlog.append(project, dream_id, *waiting, durable=False)
        return why

    cursor: dict[str, Any] | None = state.get("consolidateCursor")
    synthesized = False  # the synthesize pass ran to the end
    pruned = False  # and the prune pass
    moved = decisions is None  # the consolidate pass went on (an agent's: after its scan)
    try:
        if decisions is not None:
            stopped = run_all("apply", decisions)
            cursor, moved = passes.applied_cursor(state, not stopped)
        else:
            hints = list(state.get("pendingMerges", []))
            entries = entry_paths(project)
            again = [*hints, *({"file": f} for f in state.get(proposals.STATE_KEY, []))]
            changed = passes.changed_entries(project, entries, state, again)
            stopped, cursor = passes.consolidate_pass(
                project, entries, changed, hints, opened.conn, over, run_all, cursor, state,
                llm is not None, lambda: recorded)
            stopped = settle("consolidate", stopped)
            # each detector reads the whole tree: it stops when the budget runs out
            if not stopped:
                found = synthesize.detect(project, opened.conn, lambda: bool(over()),
                                          since=state.get(SYNTHESIZED))
                stopped = settle("synthesize", run_all("synthesize", found) if found else over())
                # a proposal left waiting for the next dream is not done: detect it again then
                synthesized = not stopped and not bound.files()
            if not stopped and prune.due(opened.conn, state.get(PRUNED), now):
                stale = prune.candidates(project, entry_paths(project), now, ctx.touched,
                                         opened.conn, lambda: bool(over()))
                stopped = settle("prune", over() or run_all(
                    "prune", prune.decide(project, opened.conn, stale)))
                pruned = not stopped and not bound.files()
    finally:
        opened.close()
    ops = done_ops
    # stopped by its budget, the dream saves its cursor: its SKIPs are work left behind too
    status = dreamlog.cut_short(ops, saved=True, skipped=skipped) if stopped else dreamlog.COMPLETED
    summary = _summary(ops)
    log.update(status=status, summary=summary, stopped=stopped, finishedAt=format_iso(now),
               notes=list(problems), skipped=skipped,
               elapsedSeconds=round(clock() - start, 3))
    dreamlog.close(project, log)  # its operations, SKIPs too, streamed from the journal
    _finish_state(project, now, dream_id, state, ctx.curations, decisions is None, cursor,
                  moved, bound.files() if decisions is None else None, synthesized, pruned)
    dreamlog.store(project).keep_only(
        h for op in ops for c in op.get("changes", []) for h in (c["before"], c["after"]) if h)
    problems.extend(f"{op['action']} failed: {op['message']}" for op in ops
                    if op.get("status") == "failed")
    return DreamResult(status, dream_id, None, passed, summary, tuple(ops), stopped,
                       tuple(problems), len(bound.waiting), limit, skipped)


def _summary(ops: Sequence[Op]) -> dict[str, int]:
    applied = [op for op in ops if op.get("status") == "applied"]
    return {
        "consolidated": sum(op["operation"] == "consolidate" for op in applied),
        "synthesized": sum(op["operation"] == "synthesize" for op in applied),
        "pruned": sum(op["operation"] == "prune" for op in applied),
        "flaggedForReview": sum(bool(op.get("needsReview")) for op in applied),
        "errors": sum(op.get("status") == "failed" for op in ops),
        "waiting": sum(op.get("status") == "waiting" for op in ops),
    }


def _finish_state(project: Project, now: datetime, dream_id: str, before: dict[str, Any],
                  own_curations: int, consumed_hints: bool,
                  cursor: dict[str, Any] | None, moved: bool,
                  waiting: list[str] | None, synthesized: bool, pruned: bool) -> None:
    def change(state: dict[str, Any]) -> None:
        if waiting is not None:  # a pass cut short still owes the last dream's waiting ones
            owed = state[proposals.STATE_KEY] if cursor is not None else []
            state[proposals.STATE_KEY] = sorted({*owed, *waiting})
        state["consolidateCursor"] = cursor
        state[passes.SCAN_KEY] = None  # a scan before this dream no longer tells
        seen = int(before.get("curationsSinceDream", 0)) + own_curations
        state["curationsSinceDream"] = max(0, state["curationsSinceDream"] - seen)
        state["lastDreamAt"] = format_iso(now)
        if moved:  # else the entries the pass owes still count from when they did
            state["lastDreamWall"] = time.time()
        if synthesized:  # patterns of entries modified before now were all weighed
            state[SYNTHESIZED] = time.time()
        if pruned:  # the stalest were decided; the rest wait for a change or a day
            state[PRUNED] = {"wall": time.time(), "now": now.timestamp()}
        state["lastDreamLogId"] = dream_id
        state["totalDreams"] += 1
        if consumed_hints:  # seed 001: consolidate clears them, acted on or not
            state["pendingMerges"] = [h for h in state["pendingMerges"]
                                      if h.get("dreamId") == dream_id]

    dreamstate.update_state(project, change)
