"""How every command starts, and how a ``brv vc`` command ends: one body for click and the fast paths.

The click commands (``cli/context.py``, ``cli/vc/group.py``, ``cli/hooks_cmd.py``) and the
click-free fast paths (``cli/fast.py``, ``cli/fast_vc.py``) parse their arguments their own
way, then call these, so both say the same lines in the same order:

1. the project's config warnings (``brv: warning:``);
2. what killed processes left, settled (``brv: note:`` for each step, then ``brv: warning:``
   for each problem), a few listings when nothing was left (``tree/leftovers.py``);
3. the command's own output;
4. after a ``brv vc`` command that succeeded: the hooks notice, said once a situation
   (``services/hooks/health.py``: brv's commit checks will not run).

Click-free and import-light: it is on the cold search path.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime
    from pathlib import Path

    from brv_vc.tree.project import Project


def open_project(cwd: Path, *, scan: bool = False) -> tuple[Project, tuple[str, ...]]:
    """(the project holding ``cwd``, its config warnings); nothing is said yet.

    ``scan``: the search's in-place scan starts beside the imports that follow
    (``index/scan.py``).

    Raises:
        NotInitializedError: no project here.
        FormatError: .brv/config.yaml is invalid, or a part of .brv/ has the wrong kind.
    """
    from brv_vc.tree.project import find_project

    project = find_project(cwd)
    if scan:
        from brv_vc.index.scan import start

        start(project.tree, project.state)
    from brv_vc.tree.config import ensure_valid_config

    return project, ensure_valid_config(project)


def begin(project: Project, now: datetime | None, warnings: tuple[str, ...],
          say: Callable[[str], object]) -> None:
    """Says the config warnings, then settles what killed writers left (a restore half done).

    Its notes and problems are said at once, so a failure after it loses none. ``now`` None
    (a command that uses no time): the clock is read only when there is something to settle.
    Never raises (``recovery.settle`` reports its own failure as a problem).
    """
    for warning in warnings:
        say(f"brv: warning: {warning}")
    from brv_vc.tree.leftovers import anything_left

    if not anything_left(project.state):
        return
    from brv_vc.services.recovery import settle

    if now is None:
        from brv_vc.clock import utcnow

        now = utcnow()
    settled = settle(project, now)
    # Trigger: 'vc status' started git status before Python imported anything (vc/git/prefetch.py).
    # Why: settling may have changed the tree it is reading. Outcome: status asks git again.
    from brv_vc.vc.git.prefetch import discard_prefetched

    discard_prefetched()
    for line in settled.steps:
        say(f"brv: note: {line}")
    for line in settled.problems:
        say(f"brv: warning: {line}")


def hooks_notice(cwd: Path, say: Callable[[str], object]) -> None:
    """Says, once a situation, when brv's commit checks will not run here; never fails.

    After every ``brv vc`` command that succeeded (but init, clone and textconv, which report
    the hooks themselves) and after a checkout (a clone's first one too).
    """
    try:
        from brv_vc.services.hooks import notice
        from brv_vc.tree.project import find_project

        text = notice(find_project(cwd))
    except Exception:  # a notice must never turn a done command into a failure
        return
    if text:
        say(text)


__all__ = ["begin", "hooks_notice", "open_project"]
