"""What every command does first: clean up after a process that was killed.

Cost when nothing was interrupted: a listing of ``.brv/state`` and two small folders.
- temp files and curate staging folders of processes that are gone are deleted;
- a curate batch cut short gets its audit rows (services/curate/journal.py);
- an archive or restore cut short is finished or undone (summary/archive_recovery.py),
  then derived state follows.
It never raises: a problem is returned as a note, and the command goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.tree import intents
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class Settled:
    """What the clean-up did: temps swept, steps finished or undone, and problems."""

    swept: int = 0
    steps: tuple[str, ...] = ()  # "finished the interrupted archive of x.md", ...
    problems: tuple[str, ...] = ()


def settle(project: Project, now: datetime) -> Settled:
    """Sweeps dead processes' temp files and settles their archive and restore steps."""
    if not project.state.is_dir():
        return Settled()
    swept = intents.sweep_temps(project)
    steps: list[str] = []
    problems: list[str] = []
    pending = intents.orphans(project)  # one listing for every kind of step
    batches = [path for path, _ in pending if path.name.startswith("curate-")]
    if batches:
        from brv_vc.services import curate

        logged = curate.settle_journal(project)
        if logged:
            steps.append(f"logged {logged} operation(s) of an interrupted curate batch")
        for path in batches:
            intents.done(path)
    touched: list[str] = []
    for path, data in pending:
        kind, rel = data.get("kind"), data.get("path")
        if kind not in ("archive", "restore") or not isinstance(rel, str):
            continue  # curate above; pulls are settled by 'brv vc' (services/vc/recovery.py)
        try:
            from brv_vc.summary.archive import archive_paths
            from brv_vc.summary.archive_recovery import settle_archive, settle_restore

            outcome = (settle_archive if kind == "archive" else settle_restore)(project, rel, now)
            if outcome:
                steps.append(f"{outcome} the interrupted {kind} of {rel}")
            touched += [rel, *archive_paths(rel)]
            intents.done(path)
        except (BrvError, OSError) as exc:
            problems.append(f"the interrupted {kind} of {rel} could not be settled: {exc}")
    if touched:
        from brv_vc.services.derived import refresh

        problems += refresh(project, touched, now).problems
    return Settled(swept, tuple(steps), tuple(problems))
