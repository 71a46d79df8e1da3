"""``brv summarize`` and the summary step of refresh.

``summarize`` brings every derived summary up to date: all ``_index.md`` (skipping folders
whose children did not change), the abstract/overview queue drained to the end, and the
manifest. ``refresh_summaries`` is the cheap variant run after every tree change: only the
changed paths' ancestors, a short time budget for the queue, fail-open.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.record import NamedTuple, Protocol
from brv_vc.services.problems import FileProblem, file_problems
from brv_vc.summary import folders, queue, removals
from brv_vc.summary.budgets import Deferred, TimeBudget
from brv_vc.summary.engine import EXTRACTIVE, Engine, engine_for
from brv_vc.summary.records import Records
from brv_vc.tree.layout import ABSTRACT_SUFFIX, ARCHIVE_DIR, OVERVIEW_SUFFIX, Kind, kind_of
from brv_vc.tree.llm_settings import configured_llm
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import walk

REFRESH_BUDGET_SECONDS = 0.5  # refresh drains the queue only while it stays quick


class Progress(Protocol):
    """Receives progress of a long summarize (the CLI draws a bar on a TTY)."""

    def start(self, total: int) -> None:
        """Called once, with the number of entries waiting to be summarized."""

    def advance(self, path: str) -> None:
        """Called once per entry processed, with its path."""


class SummarizeResult(NamedTuple):
    """What ``brv summarize`` did."""

    engine: str
    indexes_written: tuple[str, ...]
    indexes_removed: tuple[str, ...]
    indexes_unchanged: int
    queued: int
    done: int
    failed: tuple[FileProblem, ...]
    remaining: int
    escalated: tuple[tuple[str, str], ...]
    manifest_rebuilt: bool
    warnings: tuple[str, ...]


def _engine(
    project: Project, sleep: Callable[[float], None], budget: TimeBudget | None = None
) -> Engine:
    settings = configured_llm(project)
    return EXTRACTIVE if settings is None else engine_for(settings, sleep=sleep, budget=budget)


def _deferral_notes(deferred: Deferred | None, steps: list[str], problems: list[str]) -> None:
    """A provider failure is a warning; a call that did not fit the budget is only a step."""
    if deferred is None:
        return
    if deferred.failed:
        problems.append(
            f"the LLM provider failed ({deferred.reason}); abstracts and summaries stay "
            "queued: run 'brv summarize'"
        )
    else:
        steps.append(f"provider calls left for 'brv summarize': {deferred.reason}")


def _edit_warnings(edited: list[str]) -> list[str]:
    return [f"{rel} was edited by hand; regenerated (it is a derived file)" for rel in edited]


def _entries_and_orphans(project: Project) -> tuple[list[str], list[str]]:
    entries: list[str] = []
    derived: list[str] = []
    for rel, _ in walk(project):
        if rel.startswith(ARCHIVE_DIR + "/"):
            continue
        kind = kind_of(rel)
        if kind is Kind.ENTRY:
            entries.append(rel)
        elif kind in (Kind.ABSTRACT, Kind.OVERVIEW):
            derived.append(rel)
    known = set(entries)
    orphans = set()
    for rel in derived:
        suffix = ABSTRACT_SUFFIX if rel.endswith(ABSTRACT_SUFFIX) else OVERVIEW_SUFFIX
        owner = rel[: -len(suffix)] + ".md"
        if owner not in known:
            orphans.add(owner)
    return sorted(entries), sorted(orphans)


def summarize(
    project: Project,
    now: datetime,
    *,
    sleep: Callable[[float], None] = time.sleep,
    progress: Progress | None = None,
) -> SummarizeResult:
    """Regenerates every stale summary, drains the queue and rebuilds the manifest if stale.

    Args:
        project: the project.
        now: the clock.
        sleep: the retry backoff's sleep.
        progress: optional progress receiver.

    Returns:
        The result; a file that cannot be summarized (at once for bad input, after the
        retries for transient errors) is reported in ``failed``, never raised.

    Raises:
        FormatError: ``.brv/config.yaml`` is invalid.
    """
    from brv_vc.summary import abstracts

    engine = _engine(project, sleep)
    conn = open_state(project)
    try:
        records = Records(conn)
        report = folders.regenerate(project, None, engine, records)
        entries, orphans = _entries_and_orphans(project)
        abstracts.adopt_foreign(conn, project.tree, entries, records)
        stale = abstracts.stale_entries(conn, project.tree, entries)
        edited = abstracts.hand_edited(project.tree, entries, records)
        stale += [abstracts.entry_of(sibling) for sibling in edited]
        report = report._replace(warnings=(*report.warnings, *_edit_warnings(edited)))
        queued = queue.enqueue(conn, [*stale, *orphans])
        waiting = queue.counts(conn)
        if progress is not None:
            progress.start(waiting.get(queue.PENDING, 0) + waiting.get(queue.CLAIMED, 0))
        drained = abstracts.drain(
            project, conn, engine, sleep=sleep,
            progress=progress.advance if progress is not None else None,
        )
        from brv_vc.summary import manifest as manifest_mod

        built = manifest_mod.ensure(project, conn, now)
        known = set(entries)
        failed = file_problems((p, e) for p, e in queue.failures(conn) if p in known)
    finally:
        conn.close()
    return SummarizeResult(
        engine=engine.name,
        indexes_written=report.written,
        indexes_removed=report.removed,
        indexes_unchanged=report.skipped,
        queued=queued,
        done=len(drained.done),
        failed=failed,
        remaining=drained.remaining,
        escalated=drained.levels,
        manifest_rebuilt=built.rebuilt,
        warnings=report.warnings + built.warnings,
    )


class SummaryRefresh(NamedTuple):
    """The summary step of a refresh: short step lines and problems (never raised)."""

    steps: tuple[str, ...]
    problems: tuple[str, ...]
    written: tuple[str, ...] = ()


def refresh_summaries(
    project: Project,
    changed: Iterable[str] | None,
    now: datetime,
    *,
    budget_seconds: float = REFRESH_BUDGET_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
    defer: bool = False,
    manifest: bool = True,
) -> SummaryRefresh:
    """Updates summaries along the changed paths, works the queue briefly, refreshes the manifest.

    With ``defer`` only the ``_index.md`` files are written: abstracts are queued, not drained,
    and the manifest is not checked (the pre-commit hook's budget; see services/derived/refreshing.py).
    With known paths the queue is worked for those entries only: the backlog of the rest of
    the tree is ``brv summarize``'s, never a hook's. ``manifest=False`` leaves the manifest
    (a whole-tree scan) to its next reader, which rebuilds it when stale (the post-* hooks).
    Fails open: every problem is collected, nothing is raised (hooks must never break git).
    """
    steps: list[str] = []
    problems: list[str] = []
    written: list[str] = []
    paths = None if changed is None else sorted(set(changed))
    budget = TimeBudget(budget_seconds)
    deferred: Deferred | None = None
    try:
        engine = _engine(project, sleep, budget)
    except BrvError as exc:
        problems.append(f"summaries use the extractive engine: {exc.message}")
        engine = EXTRACTIVE
    try:
        conn = open_state(project)
    except Exception as exc:
        return SummaryRefresh((), (f"summaries skipped: cannot open brv.db: {exc}",))
    try:
        records = Records(conn)
        gone = [] if paths is None else removals.gone_entries(project, paths)
        touched = False
        try:
            written.extend(removals.drop_siblings(project, gone, records))
            todo = None if paths is None else folders.folders_for(paths)
            report = folders.regenerate(project, todo, engine, records)
            written.extend(report.written + report.removed)
            problems.extend(report.warnings)
            deferred = report.deferred
            touched = bool(report.written or report.removed)
            steps.append(f"summaries: {len(report.written)} written, {len(report.removed)} removed")
            removals.prune(project, gone)
        except Exception as exc:
            problems.append(f"summaries failed: {type(exc).__name__}: {exc}")
        try:
            # abstracts (and what it loads) only where they are worked: not the pre-commit
            # hook's and vc commit's deferred refresh of known paths, which only queues them
            if paths is None:
                from brv_vc.summary import abstracts

                entries, orphans = _entries_and_orphans(project)
                abstracts.adopt_foreign(conn, project.tree, entries, records)
                edited = abstracts.hand_edited(project.tree, entries, records)
                problems.extend(_edit_warnings(edited))
                wanted = [*abstracts.stale_entries(conn, project.tree, entries),
                          *(abstracts.entry_of(sibling) for sibling in edited), *orphans]
            else:
                wanted = [
                    p for p in paths
                    if kind_of(p) is Kind.ENTRY and not p.startswith(ARCHIVE_DIR + "/")
                    and p not in gone
                ]
            queue.enqueue(conn, wanted)
            if defer:
                steps.append(f"abstracts: {len(wanted)} queued")
                _deferral_notes(deferred, steps, problems)
                return SummaryRefresh(tuple(steps), tuple(problems), tuple(written))
            from brv_vc.summary import abstracts

            drained = abstracts.drain(
                project, conn, engine, budget_seconds=budget_seconds, sleep=sleep,
                only=None if paths is None else wanted,
            )
            if drained.deferred is not None and (deferred is None or drained.deferred.failed):
                deferred = drained.deferred
            touched = touched or bool(drained.done)
            problems.extend(f"abstract of {p} failed: {e}" for p, e in drained.failed)
            steps.append(f"abstracts: {len(drained.done)} done, {drained.remaining} queued")
        except Exception as exc:
            problems.append(f"abstracts failed: {type(exc).__name__}: {exc}")
        try:
            if manifest and (touched or paths is None or paths):
                # imported here: the hooks and pull leave the manifest to its next reader
                from brv_vc.summary import manifest as manifest_mod

                built = manifest_mod.ensure(project, conn, now)
                problems.extend(built.warnings)
                if built.rebuilt:
                    steps.append("manifest: rebuilt")
        except Exception as exc:
            problems.append(f"manifest failed: {type(exc).__name__}: {exc}")
    finally:
        conn.close()
    _deferral_notes(deferred, steps, problems)
    return SummaryRefresh(tuple(steps), tuple(problems), tuple(written))
