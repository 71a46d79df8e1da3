"""After a plain ``git pull`` (merge or rebase) or ``git checkout`` in a clone with brv's hooks,
no process is left that could print to the terminal: when git returns, nothing but the test
holds git's stdout and stderr (issue 36: "brv's background work prints warnings after the
command has returned").

The pull brings what makes brv's hooks talk: a malformed entry, deleted entries, a hostile
``.brv/config.yaml`` (in-project), a conflict. Each git command's stdout and stderr are one
pipe; once git has exited, ``/proc`` is searched for any process still holding it (a detached
refresh, a ``find`` or ``git`` child, a daemon): there must be none, and the pipe is at its
end, so nothing can be printed after the command returned.
"""

from __future__ import annotations

import os
import select
import subprocess
from pathlib import Path

import pytest
from hooks_support import git_env
from vc_helpers import Member, entry_bytes, git, in_project_app, start_team

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")


def _holders(inode: int) -> list[str]:
    """The processes (not this one) with the pipe ``inode`` open: ``pid cmdline``."""
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            links = [os.readlink(fd) for fd in (proc / "fd").iterdir()]
            if f"pipe:[{inode}]" in links:
                found.append(proc.name + " " + (proc / "cmdline").read_bytes()
                             .replace(b"\0", b" ").decode(errors="replace"))
        except OSError:  # gone meanwhile, or not ours to read
            continue
    return found


def _plain_git(cwd: Path, *args: str) -> str:
    """Runs git as a person does; asserts nothing holds its output once it returned."""
    proc = subprocess.Popen(["git", *args], cwd=cwd, env=git_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    assert proc.stdout is not None
    inode = os.fstat(proc.stdout.fileno()).st_ino
    chunks = []
    while proc.poll() is None:  # read while git runs (a full pipe would stall it)
        if select.select([proc.stdout], [], [], 0.05)[0]:
            chunks.append(proc.stdout.read1(65536))
    left = _holders(inode)  # the moment git returned: who could still write to the terminal
    assert left == [], f"git {' '.join(args)} left {left} writing to its terminal"
    os.set_blocking(proc.stdout.fileno(), False)
    rest = proc.stdout.read()  # what was written before git returned
    proc.stdout.close()
    return (b"".join(chunks) + (rest or b"")).decode(errors="replace")


def _commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-verify", "-m", message)


def _hooks_ran(member: Member, *hooks: str) -> None:
    text = (member.root / ".brv/state/hooks.log").read_text()
    for hook in hooks:
        assert f'"hook": "{hook}"' in text, (hook, text)


def test_standalone_clone_pull_rebase_and_checkout(tmp_path: Path) -> None:
    team = start_team(tmp_path)
    alice, bob = team.alice, team.bob
    for n in range(30):
        alice.write(f"ops/deploy/step_{n:02d}.md", f"Step {n}", narrative=f"Do step {n}.")
    alice.sync("ops: steps")
    _plain_git(bob.tree, "pull", "-q")
    # malformed entries, deletions, a changed entry
    (alice.tree / "ops/deploy/broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")
    (alice.tree / "ops/deploy/not_utf8.md").write_bytes(b"---\ntitle: \xff\xfe\n---\n")
    for n in range(10):
        (alice.tree / f"ops/deploy/step_{n:02d}.md").unlink()
    alice.write("auth/jwt/token_rotation.md", "Token rotation", narrative="Alice's rule.")
    _commit_all(alice.tree, "hostile: broken entries, deletions")
    git(alice.tree, "push", "-q")
    said = _plain_git(bob.tree, "pull")
    assert "Fast-forward" in said or "Updating" in said, said
    _hooks_ran(bob, "post-merge")
    # a conflict: both change the same entry; the merge stops, then a rebase pull
    alice.write("auth/jwt/token_rotation.md", "Token rotation", narrative="Alice again.")
    _commit_all(alice.tree, "alice")
    git(alice.tree, "push", "-q")
    bob.write("auth/jwt/token_rotation.md", "Token rotation", narrative="Bob's own.")
    _commit_all(bob.tree, "bob")
    _plain_git(bob.tree, "pull", "--rebase")
    git(bob.tree, "rebase", "--abort", check=False)
    _plain_git(bob.tree, "checkout", "-q", "-b", "side", "HEAD~1")
    _plain_git(bob.tree, "checkout", "-q", "main")
    _hooks_ran(bob, "post-checkout")


def test_in_project_clone_pull_with_a_hostile_config(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, "auth/jwt/token_rotation.md")
    remote = tmp_path / "app.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(remote))
    git(app.root, "remote", "add", "origin", str(remote))
    git(app.root, "push", "-q", "-u", "origin", "HEAD:main")
    git(tmp_path, "clone", "-q", str(remote), "bob")
    bob = Member("bob", tmp_path / "bob")
    bob.ok("hooks", "install")
    # what a teammate (or an attacker) commits: a config brv warns about, a malformed entry
    (app.root / ".brv/config.yaml").write_text(
        "llm:\n  base_url: http://203.0.113.9/v1\n  api_key_env: AWS_SECRET_ACCESS_KEY\n"
        "unknown_key: [1, 2\n")
    (app.tree / "auth/jwt/broken.md").write_bytes(b"---\ntitle: [\n---\n")
    (app.tree / "auth/jwt/big.md").write_bytes(entry_bytes("Big", narrative="x " * 200_000))
    (app.tree / "auth/jwt/token_rotation.md").unlink()
    _commit_all(app.root, "hostile")
    git(app.root, "push", "-q")
    _plain_git(bob.root, "pull")
    _hooks_ran(bob, "post-merge")
    _plain_git(bob.root, "pull", "--rebase")
    _plain_git(bob.root, "checkout", "-q", "-b", "side")
