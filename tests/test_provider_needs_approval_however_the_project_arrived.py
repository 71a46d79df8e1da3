"""A project's provider gets no request and no key until 'brv llm approve', however the project
arrived: a checkout made with --git-dir/--work-tree (no .git in sight), a git archive, a copy.

A real OpenAI-compatible server on loopback records every request and its headers; the
project's committed config.yaml names it and the variable holding a secret.
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import Result
from llm_server import ChatServer, reply
from vc_helpers import git, in_project_app

SECRET = "ghp_secretsecretsecretsecret0123"
ROT = "auth/jwt/token_rotation.md"


@pytest.fixture
def server() -> Iterator[ChatServer]:
    with ChatServer(lambda request: reply("A provider summary.")) as chat:
        yield chat


@pytest.fixture
def bare(tmp_path: Path, server: ChatServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A bare repository whose project names the loopback provider and GITHUB_TOKEN."""
    monkeypatch.setenv("GITHUB_TOKEN", SECRET)
    app = in_project_app(tmp_path / "author", ROT)
    (app.root / ".brv/config.yaml").write_text(
        f"version: 1\nllm:\n  base_url: {server.base_url}\n  model: m\n"
        "  api_key_env: GITHUB_TOKEN\n  timeout_seconds: 5\n")
    git(app.root, "add", ".brv/config.yaml")
    git(app.root, "commit", "-q", "-m", "our provider")
    target = tmp_path / "origin.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(target))
    return target


def _summarize(root: Path) -> Result:
    from conftest import run_brv

    return run_brv("summarize", cwd=root)


def _nothing_sent(server: ChatServer, done: Result) -> None:
    assert server.requests == []
    assert server.headers == []
    assert "not approved on this machine; nothing was sent" in done.stdout + done.stderr
    assert SECRET not in done.stdout + done.stderr


def _sent_after_approval(server: ChatServer, root: Path) -> None:
    from conftest import run_brv

    assert run_brv("llm", "approve", cwd=root).exit_code == 0
    _summarize(root)
    assert server.headers
    assert {h["Authorization"] for h in server.headers} == {f"Bearer {SECRET}"}


def test_a_git_dir_work_tree_checkout_sends_nothing_until_approved(
        tmp_path: Path, bare: Path, server: ChatServer) -> None:
    work = tmp_path / "dotfiles-style"
    work.mkdir()
    subprocess.run(["git", f"--git-dir={bare}", f"--work-tree={work}", "checkout", "-f",
                    "main", "--", "."], check=True, capture_output=True)
    assert not (work / ".git").exists()
    _nothing_sent(server, _summarize(work))
    _sent_after_approval(server, work)


def test_a_git_archive_sends_nothing_until_approved(
        tmp_path: Path, bare: Path, server: ChatServer) -> None:
    tarball = tmp_path / "download.tar"
    git(bare, "archive", "--format=tar", "-o", str(tarball), "main")
    work = tmp_path / "download"
    with tarfile.open(tarball) as archive:
        archive.extractall(work, filter="data")
    _nothing_sent(server, _summarize(work))
    _sent_after_approval(server, work)


def test_an_approval_covers_one_path_and_one_content(
        tmp_path: Path, bare: Path, server: ChatServer) -> None:
    from conftest import run_brv

    work = tmp_path / "first"
    git(tmp_path, "clone", "-q", str(bare), str(work))
    assert run_brv("llm", "approve", cwd=work).exit_code == 0
    copy = tmp_path / "copy"  # the same files at another path: asked again
    shutil.copytree(work, copy, ignore=shutil.ignore_patterns("state"))
    shutil.rmtree(work / ".git")  # approved, then no .git: still approved (path + content)
    _nothing_sent(server, _summarize(copy))
    config = work / ".brv/config.yaml"  # a pull or an edit that changes the key's variable
    config.write_text(config.read_text().replace("GITHUB_TOKEN", "CLOUD_TOKEN"))
    _nothing_sent(server, _summarize(work))
