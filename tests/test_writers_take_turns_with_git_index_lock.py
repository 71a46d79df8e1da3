"""A brv writer and git take turns through git's index.lock (vc/git_index_lock.py).

A writer waits for a live git holding the lock and then writes; a git started while a writer
holds it fails with git's own message and changes nothing; a lock left by a killed writer
blocks no later writer and ``brv vc recover`` removes it; ``brv vc add`` and ``commit``
wait for a writer rather than fail on its lock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, appear, git, held_pre_commit, team  # noqa: F401

from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git_index_lock

ENTRY = "auth/jwt/token_rotation.md"


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), **extra}


def _update(root: Path, tag: str, **env: str) -> subprocess.Popen[str]:
    ops = root.parent / f"{tag}.json"
    ops.write_text(json.dumps([{"type": "UPDATE", "path": ENTRY, "reason": "turns",
                                "content": f"## {tag}\n\nline {tag}"}]))
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "curate", "--ops", str(ops),
                             "--json"], cwd=root, env=_env(**env), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_writer_waits_for_a_live_git_then_writes(team: Team, tmp_path: Path) -> None:  # noqa: F811
    """A real 'git commit' holds index.lock while its pre-commit hook runs: the curate waits."""
    bob = team.bob
    hooks, release = held_pre_commit(tmp_path)
    (bob.tree / "notes.md").write_text("a file for git to commit\n")
    git(bob.tree, "add", "notes.md")
    git(bob.tree, "commit", "-q", "--no-verify", "-m", "notes")
    (bob.tree / "notes.md").write_text("changed\n")
    # 'commit -a' holds index.lock while its pre-commit hook runs (a plain commit does not)
    committing = subprocess.Popen(["git", "-c", f"core.hooksPath={hooks}", "commit", "-a", "-q",
                                   "-m", "held"], cwd=bob.tree, env=_env(),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    appear(bob.tree / ".git/index.lock", committing)
    curate = _update(bob.root, "WAITED")
    for _ in range(10):  # the writer is still waiting while git holds the lock
        time.sleep(0.1)
        assert curate.poll() is None, curate.communicate()
    assert "WAITED" not in bob.text(ENTRY)
    release.write_text("go")
    assert committing.wait(timeout=300) == 0, committing.communicate()
    out, err = curate.communicate(timeout=300)
    assert curate.returncode == 0, err
    assert json.loads(out)["summary"]["updated"] == 1
    assert "## WAITED" in bob.text(ENTRY)  # written after git's commit
    assert git(bob.tree, "log", "-1", "--format=%s").strip() == "held"
    assert not (bob.tree / ".git/index.lock").exists()


def test_git_started_while_a_writer_holds_the_lock_fails_and_changes_nothing(
        team: Team) -> None:  # noqa: F811
    """git pull, checkout and commit meet the lock a writer holds: git's message, no change."""
    alice, bob = team.alice, team.bob
    alice.edit(ENTRY, summary="alice's change")
    alice.sync("alice")
    (bob.tree / "auth/jwt/extra.md").write_text("---\ntitle: Extra\n---\nextra\n")
    git(bob.tree, "add", "auth/jwt/extra.md")
    project = Project(bob.root)
    head = git(bob.tree, "rev-parse", "HEAD")
    before = bob.text(ENTRY)
    index = (bob.tree / ".git/index").read_bytes()
    with writelock.hold(project), git_index_lock.holding(project) as held:
        assert held
        for args in (("pull", "-q", "--no-rebase"), ("checkout", "-q", "-b", "other"),
                     ("commit", "-q", "-m", "during")):
            done = subprocess.run(["git", *args], cwd=bob.tree, env=_env(), text=True,
                                  capture_output=True, check=False)
            assert done.returncode != 0, args
            assert "index.lock': File exists" in done.stderr, done.stderr
    assert git(bob.tree, "rev-parse", "HEAD") == head
    assert bob.text(ENTRY) == before
    assert (bob.tree / ".git/index").read_bytes() == index
    assert not (bob.tree / ".git/index.lock").exists()  # released with the with-block
    git(bob.tree, "pull", "-q", "--no-rebase")  # once released, git goes on
    assert "alice's change" in bob.text(ENTRY)


def test_a_killed_writers_lock_blocks_no_writer_and_recover_removes_it(
        team: Team) -> None:  # noqa: F811
    """Killed between its staging and its renames, a curate leaves index.lock; nothing is lost."""
    alice, bob = team.alice, team.bob
    alice.edit(ENTRY, summary="alice's change")
    alice.sync("alice")
    killed = _update(bob.root, "KILLED", BRV_FAULT_AT="curate-staged")
    killed.communicate(timeout=300)
    assert killed.returncode == -9
    lock = bob.tree / ".git/index.lock"
    assert lock.exists()  # what a killed git leaves too: git refuses, with its own message
    refused = subprocess.run(["git", "pull", "-q"], cwd=bob.tree, env=_env(), text=True,
                             capture_output=True, check=False)
    assert "index.lock': File exists" in refused.stderr
    assert "alice's change" not in bob.text(ENTRY)
    later = _update(bob.root, "LATER")  # a stale lock: no git runs, the writer goes on
    out, err = later.communicate(timeout=300)
    assert later.returncode == 0, err
    assert json.loads(out)["summary"]["updated"] == 1
    assert "## LATER" in bob.text(ENTRY)
    assert lock.exists()  # not the writer's to remove
    recovered = bob.ok("vc", "recover", "--json").json()
    assert str(lock) in recovered["locks_removed"]
    assert not lock.exists()
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "later")  # git goes on, with the writer's update
    git(bob.tree, "pull", "-q", "--no-rebase")
    assert "## LATER" in bob.text(ENTRY)
    assert "alice's change" in bob.text(ENTRY)


def test_brv_vc_add_and_commit_wait_for_a_writer_instead_of_failing(
        team: Team) -> None:  # noqa: F811
    """brv's own git work takes the write lock first: it waits out a writer's index.lock."""
    bob = team.bob
    bob.edit(ENTRY, summary="staged after the write")
    project = Project(bob.root)
    with writelock.hold(project), git_index_lock.holding(project):
        adding = subprocess.Popen([sys.executable, "-m", "brv_vc", "vc", "add"], cwd=bob.root,
                                  env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True)
        for _ in range(10):  # waiting, not failing on the lock
            time.sleep(0.1)
            assert adding.poll() is None, adding.communicate()
    _, err = adding.communicate(timeout=300)
    assert adding.returncode == 0, err
    assert git(bob.tree, "diff", "--cached", "--name-only").split() == [ENTRY]
    with writelock.hold(project), git_index_lock.holding(project):
        committing = subprocess.Popen([sys.executable, "-m", "brv_vc", "vc", "commit", "-m",
                                       "waited"], cwd=bob.root, env=_env(),
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(10):
            time.sleep(0.1)
            assert committing.poll() is None, committing.communicate()
    _, err = committing.communicate(timeout=300)
    assert committing.returncode == 0, err
    assert git(bob.tree, "log", "-1", "--format=%s").strip() == "waited"
