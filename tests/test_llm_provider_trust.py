"""A provider named by a committed config.yaml gets nothing until approved; redirects keep the key.

Real HTTP servers on loopback record every request: before 'brv llm approve' none arrives, a
pull that changes the provider or review says so, the user's own settings win, and a redirect
to another origin never carries the Authorization header.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from llm_server import ChatServer, reply
from vc_helpers import Member, git, in_project_app

from brv_vc.errors import ProviderError
from brv_vc.llm.client import complete
from brv_vc.tree.config import LlmSettings
from brv_vc.tree.llm_settings import configured_llm
from brv_vc.tree.project import Project

SECRET = "cloud-secret-123"
ROT = "auth/jwt/token_rotation.md"


def provider(project: Path, url: str, key_env: str | None = "CLOUD_TOKEN",
             review: bool | None = None) -> None:
    text = f"version: 1\nllm:\n  base_url: {url}\n  model: m\n  timeout_seconds: 5\n"
    if key_env:
        text += f"  api_key_env: {key_env}\n"
    if review is not None:
        text += f"review:\n  enabled: {'true' if review else 'false'}\n"
    (project / ".brv/config.yaml").write_text(text)


def question(member: Member) -> dict[str, Any]:
    out = member.ok("query", "how do refresh tokens rotate on every use", "--json").json()
    assert isinstance(out, dict)
    return out


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Member:
    """An in-project app whose committed config.yaml names a provider; CLOUD_TOKEN is set."""
    monkeypatch.setenv("CLOUD_TOKEN", SECRET)
    member = in_project_app(tmp_path, ROT)
    member.write("auth/jwt/lifetime.md", "Access token lifetime", narrative="Access tokens "
                 "expire after 15 minutes; refresh tokens rotate.")
    return member


def test_a_committed_provider_gets_nothing_until_approved(app: Member) -> None:
    with ChatServer(lambda r: reply("From the provider.")) as server:
        provider(app.root, server.base_url)
        git(app.root, "add", ".brv/config.yaml")
        git(app.root, "commit", "-q", "-m", "teammate: our provider")
        answer = question(app)
        assert "not approved on this machine; nothing was sent" in answer["note"]
        assert "brv llm approve" in answer["note"]
        summarized = app.brv("summarize")
        assert "not approved" in summarized.stdout + summarized.stderr
        assert server.requests == []
        assert server.headers == []
        approved = app.ok("llm", "approve", "--json").json()
        assert approved["base_url"] == server.base_url
        assert approved["api_key_env"] == "CLOUD_TOKEN"
        assert SECRET not in str(approved)
        question(app)
        assert [h["Authorization"] for h in server.headers] == [f"Bearer {SECRET}"]
        with ChatServer(lambda r: reply("attacker")) as other:
            provider(app.root, other.base_url)  # a later commit points elsewhere
            with pytest.raises(ProviderError, match="not approved"):
                configured_llm(Project(app.root))
            question(app)  # served from the cache or tier 2: nothing goes out either way
            assert other.requests == []
        provider(app.root, server.base_url, key_env="GITHUB_TOKEN")  # same URL, other variable
        with pytest.raises(ProviderError, match="GITHUB_TOKEN"):
            configured_llm(Project(app.root))
        question(app)
        assert len(server.requests) == 1


def test_the_users_own_settings_win_over_the_repository(app: Member, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "mine-456")
    with ChatServer(lambda r: reply("attacker")) as theirs, \
            ChatServer(lambda r: reply("mine")) as mine:
        provider(app.root, theirs.base_url)
        git(app.root, "add", ".brv/config.yaml")
        git(app.root, "commit", "-q", "-m", "teammate")
        user = Path(str(Path.home())) / ".config/brv"
        user.mkdir(parents=True)
        (user / "config.yaml").write_text(
            f"llm:\n  base_url: {mine.base_url}\n  model: mine\n  api_key_env: MY_KEY\n")
        question(app)
        assert theirs.requests == []
        assert [h["Authorization"] for h in mine.headers] == ["Bearer mine-456"]
        assert mine.requests[0]["model"] == "mine"
        (user / "config.yaml").unlink()
        monkeypatch.setenv("BRV_LLM_BASE_URL", mine.base_url)
        # the URL from the environment: no key variable from the project; its model is kept
        assert configured_llm(Project(app.root)) == LlmSettings(mine.base_url, "m", None, 5.0)


def test_a_project_outside_any_git_work_tree_needs_approval_too(
        project: Any, monkeypatch: pytest.MonkeyPatch, brv: Any) -> None:
    monkeypatch.setenv("CLOUD_TOKEN", SECRET)
    with ChatServer(lambda r: reply("ok")) as server:
        provider(project.root, server.base_url)  # an archive or a copy: no .git anywhere
        with pytest.raises(ProviderError, match="not approved"):
            configured_llm(project)
        assert brv("llm", "approve", cwd=project.root).exit_code == 0
        assert configured_llm(project) is not None
        assert server.requests == []


def test_approve_without_a_provider_is_a_clear_refusal(app: Member) -> None:
    refused = app.fails("llm", "approve")
    assert "no llm: section in .brv/config.yaml; nothing to approve" in refused.stderr


def test_a_pull_that_changes_the_provider_or_review_says_so(app: Member, tmp_path: Path) -> None:
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    git(app.root, "remote", "add", "origin", str(bare))
    git(app.root, "fetch", "-q", "origin")
    git(app.root, "branch", "-q", "--set-upstream-to=origin/main")
    git(tmp_path, "clone", "-q", str(bare), "bob")
    bob = Member("bob", tmp_path / "bob")
    bob.ok("vc", "init", "--in-project")
    provider(app.root, "http://127.0.0.1:9/v1", review=False)
    git(app.root, "add", ".brv/config.yaml")
    git(app.root, "commit", "-q", "-m", "teammate: provider, review off")
    git(app.root, "push", "-q", "origin", "HEAD:main")
    out = bob.ok("vc", "pull", "--json").json()
    notices = " | ".join(out["notices"])
    assert "changed the LLM provider URL" in notices
    assert "127.0.0.1:9" in notices
    assert "CLOUD_TOKEN" in notices
    assert "turned review off" in notices
    assert "'brv llm approve'" in notices
    provider(app.root, "http://127.0.0.1:10/v1", review=False)
    git(app.root, "commit", "-q", "-am", "teammate: another provider")
    git(app.root, "push", "-q", "origin", "HEAD:main")
    # a plain 'git pull': brv's post-merge hook says it too
    proc = subprocess.run(["git", "pull", "-q", "--no-rebase", "--no-edit"], cwd=bob.root,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "changed the LLM provider URL" in proc.stderr
    assert "127.0.0.1:10" in proc.stderr


class _Recorder(BaseHTTPRequestHandler):
    """Answers every request; records method, path and headers on the server."""

    def _any(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        self.server.seen.append((self.command, self.path, dict(self.headers.items())))  # type: ignore[attr-defined]
        location = self.server.location  # type: ignore[attr-defined]
        if location:
            self.send_response(self.server.status)  # type: ignore[attr-defined]
            self.send_header("Location", location)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = b'{"choices": [{"message": {"content": "redirected answer"}}]}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _any

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def servers() -> Iterator[tuple[ThreadingHTTPServer, ThreadingHTTPServer]]:
    """A provider that redirects, and a server on another port (another origin)."""
    made = []
    for _ in range(2):
        server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
        server.seen, server.location, server.status = [], "", 302  # type: ignore[attr-defined]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        made.append(server)
    try:
        yield made[0], made[1]
    finally:
        for server in made:
            server.shutdown()
            server.server_close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_to_another_origin_never_carries_the_key(
        servers: tuple[ThreadingHTTPServer, ThreadingHTTPServer], status: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLOUD_TOKEN", SECRET)
    first, elsewhere = servers
    port = elsewhere.server_address[1]
    first.location = f"http://localhost:{port}/v1/chat/completions"  # type: ignore[attr-defined]
    first.status = status  # type: ignore[attr-defined]
    settings = LlmSettings(f"http://127.0.0.1:{first.server_address[1]}/v1", "m", "CLOUD_TOKEN")
    # 307/308 of a POST are not followed (a ProviderError): nothing reaches the other origin
    with contextlib.suppress(ProviderError):
        complete(settings, [{"role": "user", "content": "hi"}], temperature=0, max_tokens=5,
                 sleep=lambda s: None, retries=0)
    assert first.seen[0][2]["Authorization"] == f"Bearer {SECRET}"  # type: ignore[attr-defined]
    seen = elsewhere.seen  # type: ignore[attr-defined]
    assert all("Authorization" not in headers for _, _, headers in seen)
    assert all(SECRET not in str(headers) for _, _, headers in seen)
