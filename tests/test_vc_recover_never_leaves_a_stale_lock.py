"""'brv vc recover' never reports success with a stale git lock left in place.

A real git working in the repository (``git cat-file --batch``) is waited for, then the lock
goes or recover refuses naming its pid; a git of another repository does not count, even when
its relative arguments would name this one read from the project's folder (an in-project
``git add -- .brv/context-tree`` of another project).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import vc_helpers
from vc_helpers import Team

from brv_vc.vc.git import stale_locks

team = vc_helpers.team
# vc/git/stale_locks.py finds a running git through /proc (elsewhere a lock is judged by its age)
pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc")


def _stale(team: Team) -> Path:
    """What a pull killed in its fetch leaves: the remote-tracking ref's lock, old enough."""
    lock = team.bob.tree / ".git/refs/remotes/origin/main.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("")
    os.utime(lock, (1, 1))
    return lock


def _batch(cwd: Path, env: dict[str, str] | None = None,
           args: tuple[str, ...] = ()) -> subprocess.Popen[bytes]:
    """A real git that runs until its stdin is closed, once the kernel names it git.

    Popen returns as exec closes the error pipe, a moment before the kernel renames the
    process (``/proc/PID/comm`` still says python then): what recover sees is a git.
    """
    proc = subprocess.Popen(["git", *args, "cat-file", "--batch"], cwd=cwd, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        with open(f"/proc/{proc.pid}/comm", encoding="utf-8") as handle:
            if handle.read().strip() == "git":
                return proc
        time.sleep(0.001)
    proc.kill()
    pytest.fail("the git started never showed as git in /proc (a wrapper script?)")


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        proc.kill()
        proc.wait()


def _start_after_the_look(monkeypatch: pytest.MonkeyPatch,
                          start: Callable[[], subprocess.Popen[bytes]],
                          procs: list[subprocess.Popen[bytes]]) -> None:
    """A git starts in the repository just after recover looked at its locks (none ran then)."""
    real = stale_locks.settled

    def settled(*args: Path, **kwargs: float) -> tuple[stale_locks.GitLock, ...]:
        locks = real(*args, **kwargs)
        procs.append(start())
        return locks

    monkeypatch.setattr(stale_locks, "settled", settled)


def test_a_git_still_running_after_the_wait_makes_recover_refuse_naming_it(
        team: Team, monkeypatch: pytest.MonkeyPatch,
        started: list[subprocess.Popen[bytes]]) -> None:
    lock = _stale(team)
    _start_after_the_look(monkeypatch, lambda: _batch(team.bob.tree), started)
    refused = team.bob.fails("vc", "recover")
    pid = started[0].pid
    assert f"another git process (pid {pid}) is working in this repository" in refused.stderr
    assert f"{lock} left in place" in refused.stderr
    assert f"kill {pid}" in refused.stderr
    assert "then run 'brv vc recover' again" in refused.stderr
    assert lock.exists()


def test_a_git_that_ends_within_the_wait_lets_recover_remove_the_lock(
        team: Team, monkeypatch: pytest.MonkeyPatch,
        started: list[subprocess.Popen[bytes]]) -> None:
    lock = _stale(team)
    timers: list[threading.Timer] = []

    def start() -> subprocess.Popen[bytes]:
        proc = _batch(team.bob.tree)
        assert proc.stdin is not None
        timers.append(threading.Timer(1.0, proc.stdin.close))  # git ends a second later
        timers[-1].start()
        return proc

    _start_after_the_look(monkeypatch, start, started)
    try:
        recovered = team.bob.ok("vc", "recover", "--json").json()
    finally:
        for timer in timers:
            timer.join()
    assert started[0].wait(timeout=10) == 0
    assert recovered["locks_removed"] == [str(lock)]
    assert not lock.exists()


def test_a_git_of_another_repository_with_relative_paths_is_not_waited_for(
        team: Team, tmp_path: Path, started: list[subprocess.Popen[bytes]]) -> None:
    lock = _stale(team)
    other = tmp_path / "other-project"
    vc_helpers.git(tmp_path, "init", "-q", str(other / ".brv/context-tree"))
    # relative to ITS folder, the other project's repository; read from bob's, bob's
    started.append(_batch(other, args=("--git-dir=.brv/context-tree/.git",)))
    recovered = subprocess.run([sys.executable, "-m", "brv_vc", "vc", "recover"],
                               cwd=team.bob.root, capture_output=True, text=True, check=False,
                               timeout=120)
    assert recovered.returncode == 0, recovered.stderr
    assert f"removed the stale git lock {lock}" in recovered.stdout
    assert not lock.exists()
    assert started[0].poll() is None  # it ran the whole time
