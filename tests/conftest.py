"""Shared fixtures: an isolated machine (no $HOME, no global git config), projects, and
helpers that run ``brv`` in process (through the real error boundary) or as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from embed_server import EmbedServer

from brv_vc.cli.main import main
from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

REPO = Path(__file__).resolve().parent.parent
# fixtures shared by the brv ui tests: proj/client (pages over HTTP), browser (Chromium)
pytest_plugins = ["ui_support", "browser_support"]


@dataclass
class Result:
    """What one ``brv`` run returned."""

    exit_code: int
    stdout: str
    stderr: str

    def json(self) -> object:
        import json

        return json.loads(self.stdout)


@pytest.fixture(autouse=True)
def isolated_machine(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own HOME and git identity; nothing touches the real ones."""
    home = tmp_path_factory.mktemp("home")
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Test User\n\temail = test@example.com\n"
        "[init]\n\tdefaultBranch = main\n"
        "[commit]\n\tgpgsign = false\n"
        "[tag]\n\tgpgsign = false\n"
        "[protocol \"file\"]\n\tallow = always\n"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("BRV_LOG_DIR", str(home / "logs"))
    # git hooks run 'python -m brv_vc' in subprocesses: make this checkout importable there
    # whether or not brv is installed, so local runs exercise the hooks exactly as CI does
    paths = [str(REPO), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(dict.fromkeys(paths)))
    # CI and GITHUB_ACTIONS silence the advice meant for a developer's clone (hooks/health.py)
    for name in ("BRV_NOW", "GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "EDITOR", "GIT_EDITOR",
                 "CI", "GITHUB_ACTIONS"):
        monkeypatch.delenv(name, raising=False)
    return home


@pytest.fixture
def project(tmp_path: Path) -> Project:
    """A freshly initialised project in a temporary folder."""
    root = tmp_path / "proj"
    root.mkdir()
    init_project(root)
    return Project(root)


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    """A project holding one entry, auth/jwt/token_rotation.md ("Stored text.", tag auth)."""
    result = brv(
        "curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "Stored text.",
        "--tags", "auth", cwd=project.root,
    )
    assert result.exit_code == 0, result.stderr
    return project


def run_brv(*args: str, cwd: Path, input: str | None = None) -> Result:
    """Runs ``brv -C cwd ARGS`` in process, through ``main`` and its error boundary."""
    runner = CliRunner()
    with runner.isolation(input=input) as (out, err, _):
        try:
            main(["-C", str(cwd), *args])
            code = 0
        except SystemExit as done:
            code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
        stdout, stderr = out.getvalue().decode(), err.getvalue().decode()
    return Result(code, stdout, stderr)


@pytest.fixture
def brv():
    """``brv(*args, cwd=..., input=...)`` -> Result, in process."""
    return run_brv


@pytest.fixture
def tree_repo(tmp_path: Path, brv) -> Project:
    """A standalone knowledge repository with brv's hooks installed."""
    from hooks_support import standalone

    project = standalone(tmp_path)
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    return project


def brv_process(*args: str, cwd: Path, env: dict[str, str] | None = None,
                input: str | None = None) -> Result:
    """Runs ``python -m brv_vc ARGS`` as a real process (for hooks, git and timing paths)."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), full_env.get("PYTHONPATH")]))
    full_env.update(env or {})
    proc = subprocess.run(
        [sys.executable, "-m", "brv_vc", *args],
        cwd=cwd, env=full_env, input=input, capture_output=True, text=True, check=False,
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def semantic_tree(project: Project, brv) -> Project:
    """Three entries; only 'Car fixing' means "automobile repair", in other words."""
    for title, content in (("Car fixing", "How we fix the car engine in the garage."),
                           ("Release train", "Releases ship every second Tuesday."),
                           ("Coffee rota", "Who brings the coffee beans each week.")):
        done = brv("curate", "add", "team/notes", "--title", title, "--content", content,
                   cwd=project.root)
        assert done.exit_code == 0, done.stderr
    return project


@pytest.fixture
def embeddings_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[EmbedServer]:
    """A real /v1/embeddings server on loopback (tests/embed_server.py), no BRV_EMBED_* set."""
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_MODEL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    with EmbedServer() as running:
        yield running


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` (except brv state) with its bytes: compare before/after
    a refused command to prove that nothing changed on disk."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and "/state/" not in f"/{rel}" and "/.git/" not in f"/{rel}":
            out[rel] = path.read_bytes()
    return out
