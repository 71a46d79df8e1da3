"""A brv writer beside a person's plain ``git pull`` waits for the whole pull, fetch to merge.

``git pull`` fetches, then starts ``git merge``, whose strategy takes git's ``index.lock``
with no retry: a brv writer holding the lock at that moment (vc/git_index_lock.py) made git
2.39 print "error: Unable to write index." yet write MERGE_HEAD and exit 1 with the index
still HEAD's, so the person's ``git commit --no-edit`` recorded HEAD's tree as the merge and
the teammate's change was undone (CI of f4c6378 met it in
test_vc_curates_beside_pulls_lose_nothing.py). A writer that looked for a running ``git
merge`` only could start between the fetch and the merge. Here that moment is held open for
certain: a wrapper in git's exec path holds pull's ``git merge`` until the writer has tried.
Before the fix the writer took the lock there and the merge then failed as above.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from pathlib import Path

from vc_helpers import Team, git, team  # noqa: F401

from brv_vc.tree.project import Project
from brv_vc.vc import git_index_lock

SHARED = "auth/jwt/token_rotation.md"
CHANGED = "auth/jwt/signing.md"


def _held_merge(tmp_path: Path) -> tuple[Path, Path, Path]:
    """An exec path whose ``git merge`` waits for ``release``; (exec path, entered, release)."""
    real = subprocess.run(["git", "--exec-path"], capture_output=True, text=True,
                          check=True).stdout.strip()
    folder, entered, release = tmp_path / "exec", tmp_path / "entered", tmp_path / "release"
    folder.mkdir()
    for name in os.listdir(real):
        if name != "git":
            (folder / name).symlink_to(Path(real) / name)
    wrapper = folder / "git"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"if [ \"$1\" = merge ]; then : > '{entered}'; i=0\n"
        f"  while [ ! -e '{release}' ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done\n"
        "fi\n"
        f"exec '{real}/git' \"$@\"\n")
    wrapper.chmod(0o755)
    return folder, entered, release


def test_a_writer_between_pulls_fetch_and_merge_waits_and_the_merge_keeps_theirs(
        team: Team, tmp_path: Path) -> None:  # noqa: F811
    alice, bob = team.alice, team.bob
    alice.write(CHANGED, "Signing", summary="before")
    alice.sync("one more entry")
    bob.ok("vc", "pull")
    alice.edit(CHANGED, summary="alice signs with ES256")
    alice.sync("alice's change")
    bob.edit(SHARED, summary="bob: rotate daily")  # a true merge (not a fast-forward)
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's change")
    exec_path, entered, release = _held_merge(tmp_path)
    pulling = subprocess.Popen(
        ["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=bob.tree,
        env={**os.environ, "GIT_EXEC_PATH": str(exec_path)},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3000):  # bounded: the fetch is done, the merge about to start
        if entered.exists():
            break
        assert pulling.poll() is None, pulling.communicate()
        time.sleep(0.1)
    taken = threading.Event()

    def writer() -> None:  # a brv writer whose write lasts until the pull has ended
        with git_index_lock.holding(Project(bob.root)) as held:
            assert held
            taken.set()
            while pulling.poll() is None:
                time.sleep(0.05)

    thread = threading.Thread(target=writer)
    thread.start()
    waited = not taken.wait(1.0)
    release.write_text("go")
    out, err = pulling.communicate(timeout=300)
    thread.join(timeout=300)
    assert waited, "the writer took git's index.lock between git pull's fetch and its merge"
    assert pulling.returncode == 0, out + err
    assert "Unable to write index" not in out + err
    assert "alice signs with ES256" in bob.git("show", f"HEAD:{CHANGED}")
    assert bob.git("rev-parse", "HEAD^2") == git(team.remote, "rev-parse", "main")
