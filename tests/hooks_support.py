"""Helpers for the git hook tests: real repositories, real git, brv importable by the shims."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import REPO

from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.services.init import init_project
from brv_vc.services.vc.setup import init_repo
from brv_vc.tree.project import Project


def git_env(**extra: str) -> dict[str, str]:
    """The environment git (and so the shims) run with: brv importable from this checkout."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env.update(extra)
    return env


def no_brv_path() -> str:
    """PATH without any folder holding a ``brv`` (this interpreter's scripts included)."""
    return os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                           if p and not (Path(p) / "brv").exists())


def git(*args: str, cwd: Path, check: bool = True, env: dict[str, str] | None = None,
        input: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs real git; with ``check`` a failure shows git's output."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          env=env or git_env(), input=input, check=False, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"git {' '.join(args)} -> {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
    return proc


def entry_bytes(title: str, body: str = "Some knowledge.\n") -> bytes:
    """A valid knowledge entry."""
    return serialize_entry(Entry(title=title, summary=f"About {title}", tags=("t",),
                                 created_at="2026-01-01T00:00:00Z",
                                 updated_at="2026-01-01T00:00:00Z", body=body))


def write(root: Path, rel: str, data: bytes | str) -> Path:
    """Writes a file (creating folders)."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def standalone(tmp: Path, name: str = "proj") -> Project:
    """A project whose tree is its own repository, with one committed entry."""
    root = tmp / name
    root.mkdir()
    init_project(root)
    project = Project(root)
    init_repo(root, hooks=False)  # 'brv vc init --no-hooks': the tests install them
    write(project.tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation"))
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "-m", "first", cwd=project.tree)
    return project


def in_project(tmp: Path, name: str = "app") -> Project:
    """A project whose own repository tracks code and the tree, with one commit."""
    root = tmp / name
    root.mkdir()
    git("init", "-q", cwd=root)
    init_project(root)
    project = Project(root)
    init_repo(root, in_project=True, hooks=False)
    write(root, "src/app.py", "print('hi')\n")
    write(project.tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation"))
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "first", cwd=root)
    return project


def log_lines(project: Project) -> list[dict[str, object]]:
    """The runs recorded in .brv/state/hooks.log."""
    path = project.state / "hooks.log"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line]


def head(repo: Path) -> str:
    """The commit HEAD names."""
    return git("rev-parse", "HEAD", cwd=repo).stdout.strip()
