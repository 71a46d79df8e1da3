"""A test hook: ``BRV_FAULT_AT=<step>[:<n>]`` kills this process at the n-th pass of a step.

Trigger: the fault scripts (tests/test_curate_fault_points.py, bench/fault_curate.py). Why:
a kill at a random moment rarely lands between two renames of a multi-file operation, which
is where recovery matters. Outcome: ``point(step)`` sends this process SIGKILL, as ``kill -9``
would, the n-th time (default 1) it reaches ``step``. Inert unless the variable is set (one
string comparison per pass). Steps (docs/robustness.md): ``curate-staged``,
``curate-rename``, ``curate-delete``, ``curate-applied``, ``archive-copied``,
``restore-written``, ``restore-unlinked``, ``dream-acted``, ``vectors-written``, and the
post-merge hook's fold (services/vc/written_back.py): ``reapply-recorded``,
``reapply-written``, ``reapply-removed``, ``reapply-logged``.
"""

from __future__ import annotations

import os
import signal

from brv_vc import environment

_STEP, _, _NTH = (environment.get(environment.FAULT_AT) or "").partition(":")
_passes = 0


def point(step: str) -> None:
    """Kills this process here when ``BRV_FAULT_AT`` names ``step`` (see the module)."""
    global _passes
    if step != _STEP:
        return
    _passes += 1
    if _passes >= (int(_NTH) if _NTH.isdigit() else 1):
        os.kill(os.getpid(), signal.SIGKILL)
