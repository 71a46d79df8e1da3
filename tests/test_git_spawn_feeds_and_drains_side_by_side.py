"""git started without subprocess: stdin fed while stdout and stderr drain, no pipe stalls."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooks_support import git

from brv_vc.vc import git as vcgit
from brv_vc.vc.git import spawn


def test_more_than_a_pipe_holds_goes_in_and_comes_out(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    paths = [f"folder_{i:06d}/some_rather_long_file_name_{i:06d}.tmp" for i in range(8000)]
    data = "".join(f"{p}\0" for p in paths).encode()
    assert len(data) > 4 * 65536  # git answers while it reads: both pipes fill up
    code, out, err = spawn.run_bytes(
        ["git", "-C", str(tmp_path), "check-ignore", "--no-index", "-z", "--stdin"],
        vcgit.no_git_env(), data)
    assert (code, err) == (0, b"")
    assert out.split(b"\0")[:-1] == [p.encode() for p in paths]
    assert vcgit.ignored_paths(tmp_path, [*paths[:3], "kept.md"]) == set(paths[:3])


def test_exit_codes_stderr_and_a_missing_program(tmp_path: Path) -> None:
    code, out, err = spawn.run_bytes(["git", "-C", str(tmp_path), "rev-parse", "HEAD"],
                                         vcgit.no_git_env())
    assert (code, out) == (128, b"")
    assert b"not a git repository" in err
    with pytest.raises(FileNotFoundError):
        spawn.run_bytes(["no-such-program-brv"], vcgit.no_git_env(), b"x")


CHILD = """
import os, sys
from pathlib import Path
from brv_vc.vc import git
from brv_vc.vc.git import spawn
listed = git.run(["-c", "alias.fds=!ls /proc/$$/fd", "fds"], Path(sys.argv[1])).stdout.split()
print(spawn.available(), " ".join(listed))
"""


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="lists /proc/<pid>/fd")
def test_a_descriptor_brv_inherited_is_not_passed_on_to_git(tmp_path: Path) -> None:
    """As subprocess's close_fds: a parent's inheritable descriptor never reaches git's children."""
    import os
    import subprocess
    import sys

    git("init", "-q", cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    read_end, write_end = os.pipe()
    try:
        os.set_inheritable(read_end, True)
        held = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], env=env, text=True,
                              capture_output=True, check=True, pass_fds=(read_end,))
        plain = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path)], env=env, text=True,
                               capture_output=True, check=True)
    finally:
        os.close(read_end)
        os.close(write_end)
    available, *fds = held.stdout.split()
    assert available == "True"  # spawned still, the descriptor closed in the child
    assert str(read_end) not in fds
    assert plain.stdout.split()[0] == "True"


INTERRUPTED = """
import os, signal, sys, time
from brv_vc.vc import git
from brv_vc.vc.git import spawn

def stop(*_):
    raise KeyboardInterrupt
signal.signal(signal.SIGALRM, stop)
signal.setitimer(signal.ITIMER_REAL, 0.5)
read_end, write_end = os.pipe()
os.dup2(read_end, 0)  # git reads the caller's stdin, held open here: only the interruption stops it
started = time.monotonic()
try:
    spawn.run_bytes(["git", "cat-file", "--batch"], git.no_git_env())
except KeyboardInterrupt:
    try:
        os.waitpid(-1, os.WNOHANG)
        print("a child is left")
    except ChildProcessError:
        print("stopped and reaped", time.monotonic() - started < 10)
"""


def test_an_interrupted_run_stops_git_and_reaps_it(tmp_path: Path) -> None:
    """Ctrl-C while git runs: git is stopped (SIGTERM, its locks removed) and reaped."""
    import os
    import subprocess
    import sys

    git("init", "-q", cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    done = subprocess.run([sys.executable, "-c", INTERRUPTED], cwd=tmp_path, env=env, text=True,
                          capture_output=True, timeout=60, check=True)
    assert done.stdout.split() == ["stopped", "and", "reaped", "True"], done.stderr


def test_each_git_started_lists_the_descriptors_once(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether git can be spawned is found once a process; each start lists what to close."""
    git("init", "-q", cwd=tmp_path)
    vcgit.run(["rev-parse", "--git-dir"], tmp_path)  # the first answer is found here
    listed: list[str] = []
    real = spawn.os.listdir

    def listdir(folder: str) -> list[str]:
        listed.append(folder)
        return real(folder)

    monkeypatch.setattr(spawn.os, "listdir", listdir)
    for _ in range(3):
        assert vcgit.run(["rev-parse", "--git-dir"], tmp_path).stdout.strip() == ".git"
    assert len(listed) == 3, listed
