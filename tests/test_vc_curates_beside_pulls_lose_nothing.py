"""30 curate UPDATEs of one entry while pulls merge a teammate's 30 UPDATEs of it keep all 60.

Real processes, real git, both modes: standalone with ``brv vc pull``, in-project with plain
``git pull`` and ``git commit``. The curates run beside the pulls; the commits and the pulls
take turns, as one person's commands do. A pull that meets a writer's lock fails and is run
again (as a person would); a write is never lost: every reported update is in the file and,
once committed, in history, and every section the teammate pushed too.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import REPO
from vc_helpers import Member, git, in_project_app, start_team

ENTRY = "auth/jwt/token_rotation.md"
COUNT = 30
ROUNDS, EACH = 5, 6  # the teammate pushes its 30 UPDATEs in 5 commits of 6
TURN = threading.Lock()  # one person's git commands (commit, pull) run one at a time
PROGRESS = threading.Event()  # set by a curate: the next pull has something to meet


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def _run(cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=_env(), capture_output=True, text=True,
                          check=False, timeout=300)


def _brv(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _run(cwd, sys.executable, "-m", "brv_vc", *args)


def _curate(member: Member, tags: list[str]) -> int:
    """One ``brv curate --ops`` process adding a section ``## <tag>`` per tag: updates reported."""
    ops = member.root.parent / f"{member.name}-{tags[0]}.json"
    ops.write_text(json.dumps([{"type": "UPDATE", "path": ENTRY, "reason": "beside a pull",
                                "content": f"## {tag}\n\nline {tag}"} for tag in tags]))
    done = _brv(member.root, "curate", "--ops", str(ops), "--json")
    PROGRESS.set()
    assert done.returncode == 0, done.stderr
    return int(json.loads(done.stdout)["summary"]["updated"])


def _until_ok(step: Callable[[], subprocess.CompletedProcess[str]], what: str) -> None:
    """Runs ``step`` until it succeeds; a failure must be a lock met or work in the way."""
    for _ in range(300):
        done = step()
        if done.returncode == 0:
            return
        words = done.stderr + done.stdout
        assert any(w in words for w in ("index.lock", "overwrit", "holds", "nothing to commit",
                                        "nothing added")), f"{what}: {words}"
        if "nothing" in words:
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} never succeeded")


def _sections(text: str, prefix: str) -> list[str]:
    return sorted(line[3:] for line in text.splitlines() if line.startswith(f"## {prefix}"))


def _race(writer: Callable[[], None], mate: Callable[[], None],
          pull: Callable[[], subprocess.CompletedProcess[str]]) -> None:
    """The writer and the teammate run in threads; pulls run here until both are done."""
    errors: list[BaseException] = []

    def guarded(job: Callable[[], None]) -> Callable[[], None]:
        def run() -> None:
            try:
                job()
            except BaseException as exc:  # re-raised below, in the test's thread
                errors.append(exc)
        return run

    threads = [threading.Thread(target=guarded(job)) for job in (writer, mate)]
    for thread in threads:
        thread.start()
    pulls = 0
    while any(t.is_alive() for t in threads) and pulls < 2000:  # bounded: no wait on time
        PROGRESS.wait(timeout=5)  # one pull per curate or so, while the next one runs
        PROGRESS.clear()
        with TURN:
            done = pull()
        words = done.stderr + done.stdout
        # git's refusals when it meets a brv write's index.lock, which change nothing: the
        # lock named, or (a pull whose merge autostashes) the autostash's 'stash failed'
        assert done.returncode == 0 or any(w in words for w in (
            "index.lock", "overwrit", "holds", "is held", "stash failed")), words
        pulls += 1
    for thread in threads:
        thread.join(timeout=600)
    assert not errors, errors


def _mate_rounds(mate: Member, commit_push: Callable[[int], None]) -> None:
    for r in range(ROUNDS):
        tags = [f"T{r * EACH + k:02d}" for k in range(EACH)]
        assert _curate(mate, tags) == EACH
        commit_push(r)


@pytest.mark.slow
def test_standalone_curates_beside_brv_vc_pull_keep_every_update(tmp_path: Path) -> None:
    team = start_team(tmp_path)
    bob, alice = team.bob, team.alice
    reported = []

    def writer() -> None:
        for i in range(COUNT):
            reported.append(_curate(bob, [f"B{i:02d}"]))
            with TURN:
                _until_ok(lambda: _brv(bob.root, "vc", "add"), "vc add")
                _until_ok(lambda i=i: _brv(bob.root, "vc", "commit", "-m", f"bob {i}"),
                          "commit")

    def alice_pushes(r: int) -> None:
        for args in (("vc", "add"), ("vc", "commit", "-m", f"alice {r}"), ("vc", "push")):
            done = _brv(alice.root, *args)
            assert done.returncode == 0, done.stderr

    _race(writer, lambda: _mate_rounds(alice, alice_pushes),
          lambda: _brv(bob.root, "vc", "pull"))
    _until_ok(lambda: _brv(bob.root, "vc", "pull"), "last pull")
    assert sum(reported) == COUNT
    text = bob.text(ENTRY)
    assert _sections(text, "B") == [f"B{i:02d}" for i in range(COUNT)]  # reported = on disk
    assert _sections(text, "T") == [f"T{i:02d}" for i in range(COUNT)]  # nothing of alice's lost
    committed = bob.git("show", f"HEAD:{ENTRY}")
    assert _sections(committed, "") == _sections(text, "")  # and all of it in history


@pytest.mark.slow
def test_in_project_curates_beside_plain_git_pull_keep_every_update(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ENTRY)
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    members = []
    for name in ("mate", "me"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        member.ok("vc", "init", "--in-project")  # the drivers and hooks in this clone
        members.append(member)
    mate, me = members
    reported = []

    def commit(member: Member, message: str) -> None:
        _until_ok(lambda: _run(member.root, "git", "add", "--", ".brv"), "git add")
        _until_ok(lambda: _run(member.root, "git", "commit", "-q", "-m", message), "git commit")

    def writer() -> None:
        for i in range(COUNT):
            reported.append(_curate(me, [f"B{i:02d}"]))
            with TURN:
                commit(me, f"me {i}")

    def mate_pushes(r: int) -> None:
        commit(mate, f"mate {r}")
        done = _run(mate.root, "git", "push", "-q")
        assert done.returncode == 0, done.stderr

    _race(writer, lambda: _mate_rounds(mate, mate_pushes),
          lambda: _run(me.root, "git", "pull", "-q", "--no-rebase"))
    _until_ok(lambda: _run(me.root, "git", "pull", "-q", "--no-rebase"), "last git pull")
    assert sum(reported) == COUNT
    text = me.text(ENTRY)
    assert _sections(text, "B") == [f"B{i:02d}" for i in range(COUNT)]
    assert _sections(text, "T") == [f"T{i:02d}" for i in range(COUNT)]
    committed = git(me.root, "show", f"HEAD:.brv/context-tree/{ENTRY}")
    assert _sections(committed, "") == _sections(text, "")
