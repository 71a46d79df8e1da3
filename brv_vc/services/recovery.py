"""What every command, and every read of the tree, does first: clean up after a killed writer.

Cost when nothing was interrupted: a listing of ``.brv/state`` and two small folders.
- temp files of processes that are gone are deleted;
- when an intent record or a curate staging folder is left, and no live writer holds the
  project's write lock (tree/writelock.py), the lock is taken and, the writer being dead
  whatever its pid was: a curate batch cut short is finished and logged
  (services/curate/journal.py), an archive or restore is finished or undone
  (summary/archive_recovery.py), a post-merge hook's fold is rolled forward
  (services/vc/rolled_forward.py), then derived state follows. When a live writer holds the
  lock, nothing is done: it settled all this when it took the lock.
Writers take the lock (``writelock.hold``), which settles the same way first (the hook
registered below).
It never raises: a problem is returned as a note, and the command goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.tree import intents, leftovers, writelock
from brv_vc.tree.leftovers import LOCKED_KINDS
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class Settled:
    """What the clean-up did: temps swept, steps finished or undone, and problems."""

    swept: int = 0
    steps: tuple[str, ...] = ()  # "finished the interrupted archive of x.md", ...
    problems: tuple[str, ...] = ()


def left_behind(project: Project) -> bool:
    """Whether a writer left a step to settle (an intent record or a staging folder).

    Cheap enough for every read: one listing of ``.brv/state/pending`` and of ``.brv/state``
    (``tree.leftovers``, which the click-free paths ask without importing this module).
    """
    return leftovers.left_behind(project.state)


def settle(project: Project, now: datetime) -> Settled:
    """Sweeps dead processes' temp files and settles what dead writers left."""
    if not project.state.is_dir():
        return Settled()
    try:
        swept = intents.sweep_temps(project)
        if writelock.held(project) or not left_behind(project):
            return Settled(swept)  # inside a writer: it settled when it took the lock
        with writelock.hold(project, wait=False, settle=False) as taken:
            extra = settle_held(project, now) if taken else Settled()
        return Settled(swept + extra.swept, extra.steps, extra.problems)
    except Exception as exc:  # never blocks a command: e.g. a read-only .brv/state
        return Settled(problems=(f"what an interrupted command left could not be settled: "
                                 f"{exc}",))


def settle_held(project: Project, now: datetime) -> Settled:
    """Settles every step writers left (the caller holds the write lock: they are dead)."""
    steps: list[str] = []
    problems: list[str] = []
    touched: list[str] = []
    pending = [(path, {**data, "kind": path.name.split("-", 1)[0]})
               for path, data in intents.records(project)
               if path.name.split("-", 1)[0] in LOCKED_KINDS]
    if any(data["kind"] == "curate" for _, data in pending):
        try:
            from brv_vc.services import curate

            logged, notes, written = curate.settle_journal(project)
            touched += written
            if logged:
                steps.append(f"finished and logged {logged} operation(s) of an interrupted "
                             "curate batch")
            problems += notes
            for path, data in pending:
                if data["kind"] == "curate":
                    intents.done(path)
        except (BrvError, OSError) as exc:
            problems.append(f"the interrupted curate batch could not be finished: {exc}")
    for path, data in pending:
        kind, rel = data["kind"], data.get("path")
        if kind not in ("archive", "restore") or not isinstance(rel, str):
            continue
        try:
            from brv_vc.summary.archive_recovery import settle_archive, settle_restore
            from brv_vc.tree.layout import archive_paths

            outcome = (settle_archive if kind == "archive" else settle_restore)(project, rel, now)
            if outcome:
                steps.append(f"{outcome} the interrupted {kind} of {rel}")
            touched += [rel, *archive_paths(rel)]
            intents.done(path)
        except (BrvError, OSError) as exc:
            problems.append(f"the interrupted {kind} of {rel} could not be settled: {exc}")
    for path, data in pending:  # after curate and archive: their files are whole again
        if data["kind"] != "dream":
            continue
        try:
            from brv_vc.services import dream

            restored = dream.undo_interrupted(project, data, now)
            steps.append(f"undid the interrupted dream operation {data.get('action', '')} "
                         f"({len(restored)} file(s) put back)")
            touched += restored
            intents.done(path)
        except (BrvError, OSError) as exc:
            problems.append(f"the interrupted dream operation could not be undone: {exc}")
    for path, data in pending:  # a post-merge hook killed mid-fold: rolled forward
        if data["kind"] != "reapply":
            continue
        from brv_vc.services.vc import settle_reapply

        lines, notes, written = settle_reapply(project, path, data)
        steps += lines
        problems += notes
        touched += written
    swept = intents.sweep_staging(project) if not problems else 0
    if touched:
        from brv_vc.services.derived import refresh

        problems += refresh(project, touched, now).problems
    return Settled(swept, tuple(steps), tuple(problems))


def _on_take(project: Project) -> None:
    from brv_vc.clock import utcnow

    settle_held(project, utcnow())


writelock.on_take(_on_take)
