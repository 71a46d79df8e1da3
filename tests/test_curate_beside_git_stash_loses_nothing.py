"""A curate beside a person's plain ``git stash``: the write is kept (vc/git_index_lock.py).

``git stash push`` takes git's index.lock step after step: it snapshots the tree into a
stash commit, then runs ``git add``, ``diff-index`` and ``apply -R`` (or ``reset --hard``)
to put the tree back to HEAD. A curate that wrote between two steps was told "updated" and
its text was in neither the tree nor the stash (the team simulation's lost tokens). Here a
real git's ``add`` step is held (``vc_helpers.held_exec_path``: a wrapper in git's exec path
waits for a file) so the curate starts exactly in that gap: it must wait for the stash to
end, then write.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, git, held_exec_path, team  # noqa: F401

from brv_vc.tree.writelock import LOCK_FILE

ENTRY = "auth/jwt/token_rotation.md"


def _write_lock_held(root: Path) -> bool:
    """Whether a brv writer holds the write lock (tree/writelock.py's flock)."""
    path = root / ".brv" / "state" / LOCK_FILE
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


def _curate(root: Path, tag: str) -> subprocess.Popen[str]:
    ops = root.parent / f"{tag}.json"
    ops.write_text(json.dumps([{"type": "UPDATE", "path": ENTRY, "reason": "beside a stash",
                                "content": f"## {tag}\n\nline {tag}"}]))
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "curate", "--ops", str(ops),
                             "--json"], cwd=root, env={**os.environ, "PYTHONPATH": str(REPO)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_curate_between_two_steps_of_git_stash_is_kept(team: Team,  # noqa: F811
                                                         tmp_path: Path) -> None:
    bob = team.bob
    first = _curate(bob.root, "STASHED")
    assert first.wait(timeout=300) == 0, first.communicate()
    exec_path, entered, release = held_exec_path(tmp_path, "add")
    stashing = subprocess.Popen(
        ["git", "stash", "push", "-q", "--include-untracked", "--", "."], cwd=bob.tree,
        env={**os.environ, "GIT_EXEC_PATH": str(exec_path)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3000):  # bounded: the stash reaches its 'git add' step
        if entered.exists():
            break
        assert stashing.poll() is None, stashing.communicate()
        time.sleep(0.1)
    curate = _curate(bob.root, "BESIDE")
    for _ in range(3000):  # the curate starts, takes brv's write lock and writes or waits
        if curate.poll() is not None or _write_lock_held(bob.root):
            break
        time.sleep(0.05)
    time.sleep(0.5)
    release.write_text("go")
    assert stashing.wait(timeout=300) == 0, stashing.communicate()
    out, err = curate.communicate(timeout=300)
    assert curate.returncode == 0, err
    assert json.loads(out)["summary"]["updated"] == 1  # told "updated": it must be somewhere
    assert "## BESIDE" in bob.text(ENTRY)  # written after the stash put the tree back
    stashed = git(bob.tree, "stash", "show", "-p", "--include-untracked")
    assert "STASHED" in stashed
    assert "BESIDE" not in stashed
    git(bob.tree, "checkout", "-q", "--", ".")
    git(bob.tree, "stash", "pop", "-q")  # the person's stash comes back whole
    assert "## STASHED" in bob.text(ENTRY)
