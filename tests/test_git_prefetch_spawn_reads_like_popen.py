"""The prefetched git status, spawned without subprocess, reads and exits as `Popen(text=True)`."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from brv_vc.vc.git.spawn import Spawned

# 300 kB on stderr before stdout; newlines as text mode translates them; an exit code
SCRIPT = ("head -c 300000 /dev/zero | tr '\\0' e >&2; head -c 300000 /dev/zero | tr '\\0' o; "
          "printf 'a\\r\\nb\\rc\\0d\\n'; exit 3")


def test_both_pipes_are_read_to_their_end_with_popens_text_and_exit_code() -> None:
    spawned = Spawned(["sh", "-c", SCRIPT], dict(os.environ))
    out, err = spawned.communicate()
    popen = subprocess.run(["sh", "-c", SCRIPT], capture_output=True, text=True, check=False)
    assert (spawned.returncode, out, err) == (popen.returncode, popen.stdout, popen.stderr)
    assert spawned.returncode == 3
    assert len(err) == 300000
    assert out.endswith("a\nb\nc\0d\n")


def test_the_child_does_not_inherit_pythons_ignored_sigpipe() -> None:
    """git killed by SIGPIPE on a closed pipe, as under Popen (restore_signals)."""
    spawned = Spawned(["sh", "-c", "grep SigIgn /proc/$$/status"], dict(os.environ))
    mask = int(spawned.communicate()[0].split()[1], 16)
    assert not mask & (1 << (signal.SIGPIPE - 1) | 1 << (signal.SIGXFSZ - 1))


def test_terminate_stops_a_running_process() -> None:
    spawned = Spawned(["sleep", "30"], dict(os.environ))
    assert spawned.poll() is None
    spawned.terminate()
    spawned.communicate()
    assert spawned.returncode == -15  # SIGTERM, as Popen reports it
    spawned.terminate()  # reaped: nothing to signal, no error


def test_a_missing_program_raises_oserror_and_leaks_no_descriptor() -> None:
    before = set(os.listdir("/proc/self/fd"))
    with pytest.raises(FileNotFoundError):
        Spawned(["brv-no-such-program-here"], dict(os.environ))
    assert set(os.listdir("/proc/self/fd")) == before
