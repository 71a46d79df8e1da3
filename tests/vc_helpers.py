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
import subprocess
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
