"""A hook whose re-application of brv's deletions fails still refreshes what the pull changed.

``git pull --rebase`` with autostash over an entry brv deleted here: the hook (post-merge of a
fast-forward, post-rewrite of a rebase) re-applies the deletion under brv's write lock
(``pulled_back.written_back``), then refreshes the pull's paths. With the lock held by another
writer past ``BRV_LOCK_WAIT``, the re-application fails; that is now a warning, and the
refresh runs all the same (review of rebasefold, finding 2: it used to skip the whole hook).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hooks_support import git, git_env, log_lines
from written_back_support import D, E, brv_ok, change, origin_and_clone

from brv_vc.tree.writelock import LOCK_FILE

HOLD = ("import fcntl, os, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "sys.stdin.read()\n")


@pytest.fixture
def holding() -> Iterator[list[subprocess.Popen[str]]]:
    held: list[subprocess.Popen[str]] = []
    yield held
    for proc in held:
        proc.communicate("")


def _hold(lock: Path, held: list[subprocess.Popen[str]]) -> None:
    """Another writer holds brv's write lock until the test ends."""
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    held.append(proc)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "held\n"


@pytest.mark.parametrize(("local_commit", "hook"), [(False, "post-merge"), (True, "post-rewrite")],
                         ids=["fast-forward", "rebased"])
def test_a_held_write_lock_leaves_the_entry_back_and_the_pull_refreshed(
        tmp_path: Path, holding: list[subprocess.Popen[str]], local_commit: bool,
        hook: str) -> None:
    origin, clone = origin_and_clone(tmp_path)
    if local_commit:
        (clone.root / "notes.txt").write_text("local\n")
        git("add", "notes.txt", cwd=clone.root)
        git("commit", "-qm", "local code", cwd=clone.root)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, D, E)
    _hold(clone.state / LOCK_FILE, holding)
    count = len(log_lines(clone))

    pulled = git("-c", "rebase.autoStash=true", "pull", "--rebase", cwd=clone.root,
                 check=False, env=git_env(BRV_LOCK_WAIT="0.2"))

    assert pulled.returncode == 0, pulled.stderr
    runs = [r for r in log_lines(clone)[count:] if r["hook"] == hook]
    assert runs, pulled.stderr
    assert E in runs[-1]["refreshed"], (runs, pulled.stderr)
    assert "not re-applied" in pulled.stderr, pulled.stderr
    assert (clone.tree / D).is_file()  # left as git wrote it back: the stash apply stops on it
