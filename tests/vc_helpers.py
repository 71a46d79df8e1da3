"""Small fixtures so vc scenarios read like stories: a bare remote and two teammates, alice
and bob, each with a project whose context tree is a clone of it.

    def test_x(team):
        team.alice.write("auth/jwt/rotation.md", title="Rotation", facts=["single use"])
        team.alice.sync("add rotation")          # add + commit + push
        team.bob.ok("vc", "pull")

Import the fixtures into a test module with ``from vc_helpers import team  # noqa: F401``.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from conftest import Result, run_brv

from bench.git_server import free_port  # noqa: F401 (the tests import it from here)
from bench.git_server import git_daemon as serve
from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, parse_entry, serialize_entry
from brv_vc.tree.store import write_atomic

T0 = "2025-03-01T10:00:00Z"


def git(cwd: Path, *args: str, check: bool = True) -> str:
    """Runs plain git (as a person would) and returns stdout."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if check and proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {proc.stderr}")
    return proc.stdout


def dead_pid() -> int:
    """The pid of a process that has ended and been reaped: nothing runs under it."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def git_commands(trace: Path) -> list[list[str]]:
    """The argv of every git process a GIT_TRACE2_EVENT file recorded, in order.

    git's own options before the command (``-C DIR``, ``-c k=v``, as ``vc/git/process.py`` starts
    git) are left out.
    """
    commands = []
    for line in trace.read_text(encoding="utf-8").splitlines():
        event = json.loads(line)
        if event.get("event") == "start":
            argv = event["argv"][1:]
            while argv and argv[0] in ("-C", "-c"):
                argv = argv[2:]
            commands.append(argv)
    return commands


def traced_gits(trace: Path) -> list[str]:
    """The git commands a ``GIT_TRACE`` file shows started, in order (``diff --raw ...``)."""
    return [line.split("built-in: git ", 1)[1]
            for line in trace.read_text(encoding="utf-8").splitlines() if "built-in: git " in line]


def entry_bytes(title: str, *, summary: str = "", tags: tuple[str, ...] = (),
                narrative: str = "", facts: list[str] | None = None,
                relations: list[str] | None = None, created: str = T0,
                updated: str = T0) -> bytes:
    """Canonical bytes of an entry built from a few plain values."""
    body = build_body([
        ("Narrative", narrative),
        ("Facts", "\n".join(f"- {f}" for f in facts or [])),
        ("Relations", "\n".join(f"@{r}" for r in relations or [])),
    ])
    return serialize_entry(Entry(title=title, summary=summary, tags=tags, created_at=created,
                                 updated_at=updated, body=body))


@dataclass
class Member:
    """One teammate's project."""

    name: str
    root: Path
    log: list[Result] = field(default_factory=list)

    @property
    def tree(self) -> Path:
        return self.root / ".brv" / "context-tree"

    def brv(self, *args: str, input: str | None = None) -> Result:
        result = run_brv(*args, cwd=self.root, input=input)
        self.log.append(result)
        return result

    def ok(self, *args: str) -> Result:
        """Runs brv and asserts success."""
        result = self.brv(*args)
        command = " ".join(args)
        assert result.exit_code == 0, f"{self.name}: brv {command}\n{result.stdout}{result.stderr}"
        return result

    def fails(self, *args: str, code: int = 1) -> Result:
        """Runs brv and asserts the given non-zero exit code."""
        result = self.brv(*args)
        assert result.exit_code == code, f"{self.name}: expected exit {code}: {result}"
        return result

    def write(self, relpath: str, title: str | None = None, **values: Any) -> None:
        write_atomic(self.tree / relpath, entry_bytes(title or relpath, **values))

    def edit(self, relpath: str, **changes: Any) -> None:
        """Changes fields of an entry (``body`` replaces the whole body)."""
        entry = self.read(relpath)
        write_atomic(self.tree / relpath, serialize_entry(entry.with_changes(**changes)))

    def read(self, relpath: str) -> Entry:
        return parse_entry((self.tree / relpath).read_bytes(), file=relpath)

    def text(self, relpath: str) -> str:
        return (self.tree / relpath).read_text(encoding="utf-8")

    def git(self, *args: str, check: bool = True) -> str:
        return git(self.tree, *args, check=check)

    def sync(self, message: str) -> None:
        """add + commit + push."""
        self.ok("vc", "add")
        self.ok("vc", "commit", "-m", message)
        self.ok("vc", "push")


@dataclass
class Team:
    """A bare remote and two teammates who cloned it."""

    remote: Path
    alice: Member
    bob: Member


def make_member(base: Path, name: str) -> Member:
    root = base / name
    root.mkdir(parents=True)
    return Member(name, root)


def standalone_member(base: Path, *flags: str) -> Member:
    """'solo', a standalone project: ``brv init`` then ``brv vc init`` with ``flags``."""
    member = make_member(base, "solo")
    member.ok("init")
    member.ok("vc", "init", *flags)
    return member


def in_project_app(base: Path, entry: str) -> Member:
    """A code project tracking its tree in-project, with one committed entry at ``entry``."""
    app = make_member(base, "app")
    git(app.root, "init", "-q")
    (app.root / "app.py").write_text("print('v1')\n")
    git(app.root, "add", ".")
    git(app.root, "commit", "-q", "-m", "code")
    app.ok("vc", "init", "--in-project")
    app.write(entry, "Token rotation", facts=["single use"], narrative="Tokens rotate.")
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "knowledge")
    return app


def start_team(base: Path, url: str | None = None, remote: Path | None = None) -> Team:
    """alice initialises, commits one entry and pushes; bob clones."""
    if remote is None:
        remote = base / "knowledge.git"
        git(base, "init", "-q", "--bare", "-b", "main", str(remote))
    alice, bob = make_member(base, "alice"), make_member(base, "bob")
    alice.ok("vc", "init")
    alice.write("auth/jwt/token_rotation.md", "Token rotation", summary="How tokens rotate",
                tags=("auth", "jwt"), narrative="Refresh tokens rotate on every use.",
                facts=["refresh tokens are single-use"])
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "auth: token rotation")
    alice.ok("vc", "remote", "add", "origin", url or str(remote))
    alice.ok("vc", "push", "-u")
    bob.ok("vc", "clone", url or str(remote))
    return Team(remote, alice, bob)


@pytest.fixture
def team(tmp_path: Path) -> Team:
    """A bare remote plus alice and bob, both at the same first commit."""
    return start_team(tmp_path)


@pytest.fixture
def git_daemon(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A real ``git daemon`` on loopback serving a bare repository (push enabled;
    ``bench/git_server.py``).

    Yields:
        (the git:// URL, the bare repository's path).
    """
    base = tmp_path / "served"
    base.mkdir()
    git(base, "init", "-q", "--bare", "-b", "main", "knowledge.git")
    with serve(base) as root:
        yield f"{root}/knowledge.git", base / "knowledge.git"


def held_exec_path(tmp_path: Path, command: str) -> tuple[Path, Path, Path]:
    """An exec path whose ``git <command>`` waits for ``release``: (exec path, entered, release).

    Every git a git started with ``GIT_EXEC_PATH`` set to it starts goes through it too (a
    pull's merge, a merge's ``stash create``); git's helpers stay where git looks for them.
    """
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
        f"if [ \"$1\" = {command} ]; then : > '{entered}'; i=0\n"
        f"  while [ ! -e '{release}' ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i+1)); done\n"
        "fi\n"
        f"exec '{real}/git' \"$@\"\n")
    wrapper.chmod(0o755)
    return folder, entered, release


def writer_waited(root: Path, running: subprocess.Popen[str], release: Path) -> bool:
    """Whether a brv writer (git's index.lock, held until ``running`` ends) waited for it.

    The writer starts in a thread; it is given a second to take the lock, then ``release``
    lets the held git go on; the answer is whether it had not taken the lock by then.
    """
    from brv_vc.tree.project import Project
    from brv_vc.vc import git_index_lock

    taken = threading.Event()

    def writer() -> None:
        with git_index_lock.holding(Project(root)) as held:
            assert held
            taken.set()
            while running.poll() is None:
                time.sleep(0.05)

    thread = threading.Thread(target=writer)
    thread.start()
    waited = not taken.wait(1.0)
    release.write_text("go")
    running.wait(timeout=300)
    thread.join(timeout=300)
    return waited


def start_held(argv: list[str], cwd: Path, exec_path: Path,
               entered: Path) -> subprocess.Popen[str]:
    """Starts ``argv`` with git's exec path at ``exec_path``; returns once the held git began."""
    running = subprocess.Popen(argv, cwd=cwd, env={**os.environ, "GIT_EXEC_PATH": str(exec_path)},
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for _ in range(3000):  # bounded
        if entered.exists():
            return running
        assert running.poll() is None, running.communicate()
        time.sleep(0.1)
    raise AssertionError(f"{argv} never reached the held git command")


def appear(path: Path, proc: subprocess.Popen[str]) -> None:
    """Waits for ``path`` to exist while ``proc`` runs (a live git's lock file, say)."""
    for _ in range(1200):  # bounded: up to ~2 minutes on a loaded machine
        if path.exists():
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


def held_pre_commit(tmp_path: Path) -> tuple[Path, Path]:
    """A hooks folder whose pre-commit waits until the release file exists (up to ~5 min):
    a ``git -c core.hooksPath=HOOKS commit`` then holds index.lock until it is made."""
    hooks, release = tmp_path / "held-hooks", tmp_path / "release"
    hooks.mkdir()
    hook = hooks / "pre-commit"
    hook.write_text(f"#!/bin/sh\ni=0\nwhile [ ! -e '{release}' ] && [ $i -lt 3000 ]; do "
                    "sleep 0.1; i=$((i+1)); done\n")
    hook.chmod(0o755)
    return hooks, release
