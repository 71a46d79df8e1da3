"""``brv vc sync``: pull, then push; a push a teammate beat is retried after a pull.

Trigger: a team pushing at once. Why: between one teammate's pull and push another's push
can land, and git rejects the first push (not a fast-forward); a person then pulls and
pushes again by hand, and six agents doing that in a loop still lose the race for a while.
Outcome: the pull and push services, run again after a rejected push with a jittered
exponential back-off (the waits of rivals that collided drift apart), up to a bound; a
true conflict stops at once (nothing is pushed) and says how to go on.
"""

from __future__ import annotations

import random
import time
from datetime import datetime

from brv_vc.errors import GitError, PushRejected, UsageError
from brv_vc.record import NamedTuple
from brv_vc.services.vc.pushing import push
from brv_vc.services.vc.remotes import chosen
from brv_vc.services.vc.retry import MAX_WAIT, TRIES, backoff
from brv_vc.services.vc.sync import pull
from brv_vc.tree.project import Project
from brv_vc.vc.outgoing import outgoing
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from brv_vc.vc.status import Change


class RoundTrip(NamedTuple):
    """``brv vc sync``: what arrived, what left, and how many pushes it took."""

    remote: str
    branch: str
    tries: int  # pulls made (each push follows one)
    waited: float  # seconds slept between tries
    arrived: tuple[str, ...]  # tree paths the pulls changed
    commits: int  # commits pushed (0: nothing to push)
    left: tuple[str, ...]  # tree paths the pushed commits change
    conflicts: tuple[Change, ...] = ()  # the pull stopped here; nothing was pushed


def round_trip(project: Project, repo: KnowledgeRepo, now: datetime, *,
               tries: int = TRIES, max_wait: float = MAX_WAIT,
               sleep: Callable[[float], None] = time.sleep,
               rng: random.Random | None = None) -> RoundTrip:
    """Pulls the upstream, then pushes; a rejected push is pulled and pushed again.

    Args:
        project: the project.
        repo: its knowledge repository (``prepare``d).
        now: the clock.
        tries: how many pushes at most (each after a pull).
        max_wait: the longest wait, in seconds, between two tries.
        sleep: waits that many seconds.
        rng: draws the random part of each wait.

    Returns:
        What arrived and what left; ``conflicts`` set when the pull stopped on them.

    Raises:
        UsageError: ``tries`` under 1 or a negative ``max_wait``.
        PushRejected: the push was still rejected after ``tries`` tries.
        GitError, ConflictError: as ``pull`` and ``push`` raise them.
    """
    if tries < 1:
        raise UsageError(f"--tries must be 1 or more, not {tries}", hint="e.g. --tries 10")
    if max_wait < 0:
        raise UsageError(f"--max-wait must be 0 or more seconds, not {max_wait:g}",
                         hint="e.g. --max-wait 5")
    rng = rng or random.Random()
    arrived: dict[str, None] = {}
    waited = 0.0
    for attempt in range(1, tries + 1):
        pulled = pull(project, repo, now)
        if pulled.after is not None:
            arrived.update(dict.fromkeys(pulled.after.changed))
        remote, branch = _upstream(repo)
        if pulled.conflicts:
            return RoundTrip(remote, branch, attempt, waited, tuple(arrived), 0, (),
                             pulled.conflicts)
        sending = outgoing(repo, repo.rev(f"refs/remotes/{remote}/{branch}"), repo.head())
        if not sending.commits:
            return RoundTrip(remote, branch, attempt, waited, tuple(arrived), 0, ())
        try:
            push(repo)
        except PushRejected as rejected:
            if attempt == tries:
                raise _gave_up(rejected, tries, waited, sending.commits, len(arrived)) from None
            pause = backoff(attempt, max_wait, rng)
            sleep(pause)
            waited += pause
            continue
        return RoundTrip(remote, branch, attempt, waited, tuple(arrived), sending.commits,
                         sending.paths)
    raise AssertionError("unreachable: the last try returns or raises")  # pragma: no cover


def _upstream(repo: KnowledgeRepo) -> tuple[str, str]:
    """The remote and branch the pull used (it refused a branch without an upstream)."""
    name, upstream, _ = chosen(repo, None, repo.branch())
    if upstream is None:  # pragma: no cover - pull raised already
        raise GitError("the branch has no upstream", hint="brv vc push -u")
    return name, upstream[1]


def _gave_up(rejected: PushRejected, tries: int, waited: float, commits: int,
             arrived: int) -> PushRejected:
    """The error of the last rejected try: what stays local, and what to do."""
    s = "" if commits == 1 else "s"
    return PushRejected(
        f"sync gave up: the push was rejected {tries} times in a row ({waited:.1f} s of "
        f"waiting between tries): teammates kept pushing first. Your {commits} commit{s} "
        f"stay committed here, and the {arrived} file(s) that arrived are merged; nothing "
        f"was lost\n{rejected.message}",
        hint="run 'brv vc sync' again (or allow more: --tries 20 --max-wait 10)")
