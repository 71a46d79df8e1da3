"""Dream logs (``brv dream --log [ID]``) and stopping a running dream (``--cancel ID``)."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass
from typing import Any

from brv_vc.errors import NotFoundError
from brv_vc.services.dream import dreamlog, lock
from brv_vc.summary.queue import alive
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class DreamLogs:
    """The dream state and either every log (newest first, without operations) or one log.

    One log's SKIPs are counted in ``skipped``, not listed: its file keeps each with its reason.
    """

    state: dict[str, Any]
    logs: tuple[dict[str, Any], ...]
    detail: bool


def logs(project: Project, dream_id: str | None = None) -> DreamLogs:
    """Lists the logs, or returns one whole.

    Raises:
        NotFoundError: no such dream.
    """
    state = dreamstate.read_state(project)
    if dream_id:
        return DreamLogs(state, (dreamlog.lean(project, dream_id),), True)
    found = [dreamlog.lean(project, name, listed=False)
             for name in reversed(dreamlog.ids(project))]
    return DreamLogs(state, tuple(found), False)


def cancel(project: Project, dream_id: str) -> int:
    """Asks the running dream ``dream_id`` to stop (as one Ctrl-C: it keeps finished work).

    Returns:
        The process id signalled.

    Raises:
        NotFoundError: no dream with that id is running.
    """
    holder = lock.holder(project)
    if holder is None or holder.dream_id != dream_id or not alive(holder.pid):
        running = f" (running: {holder.dream_id})" if holder and alive(holder.pid) else ""
        raise NotFoundError(f"no running dream with id {dream_id}{running}",
                            hint="see the dreams with 'brv dream --log'")
    os.kill(holder.pid, signal.SIGINT)
    return holder.pid
