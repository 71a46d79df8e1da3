"""brv ui under test: a real project with git history, served by real uvicorn on loopback,
and a small HTTP client (http.client) that sets Host, Origin and cookies by hand."""

from __future__ import annotations

import http.client
import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from urllib.parse import urlencode

import pytest
from conftest import run_brv
from vc_helpers import git

from brv_vc import web
from brv_vc.tree.project import Project
from brv_vc.web import server

TOKEN = "test-token-0123456789"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str

    def json(self) -> object:
        return json.loads(self.body)


@dataclass
class Client:
    """Talks to one served app; ``token`` goes as the cookie unless told otherwise."""

    port: int
    host: str = "127.0.0.1"
    cookies: dict[str, str] = field(default_factory=dict)

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def request(self, method: str, path: str, *, token: str | None = TOKEN,
                headers: dict[str, str] | None = None, form: dict[str, str] | None = None,
                host_header: str | None = None) -> Answer:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        sent = {"Host": host_header or f"{self.host}:{self.port}"}
        if token is not None:
            sent["Cookie"] = f"brv_ui_{self.port}={token}"
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        sent.update(headers or {})
        conn.request(method, path, body=body, headers=sent)
        reply = conn.getresponse()
        answer = Answer(reply.status, {k.lower(): v for k, v in reply.getheaders()},
                        reply.read().decode("utf-8"))
        conn.close()
        return answer

    def get(self, path: str, **kw: object) -> Answer:
        return self.request("GET", path, **kw)  # type: ignore[arg-type]

    def post(self, path: str, form: dict[str, str] | None = None, **kw: object) -> Answer:
        headers = {"Origin": self.origin, **kw.pop("headers", {})}  # type: ignore[dict-item]
        return self.request("POST", path, form=form or {}, headers=headers, **kw)  # type: ignore[arg-type]


@contextmanager
def served(project: Project, port: int = 0,
           clock: Callable[[], datetime] | None = None) -> Iterator[Client]:
    """The app of ``project`` on a real uvicorn on 127.0.0.1 while the block runs."""
    with server.running(web.app(project, TOKEN, clock), port) as sock:
        yield Client(sock.getsockname()[1])


def history_project(root: Path) -> Project:
    """A project in a git repository: two entries, one edited in a second commit."""
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    for title, text in (("Token rotation", "Refresh tokens are single use."),
                        ("Signing keys", "Keys rotate every 90 days.")):
        related = ["--related", "auth/jwt/signing_keys.md"] if title.startswith("Token") else []
        done = run_brv("curate", "add", "auth/jwt", "--title", title, "--content", text,
                       *related, cwd=root)
        assert done.exit_code == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first knowledge")
    done = run_brv("curate", "update", "auth/jwt/token_rotation.md", "--content",
                   "Refresh tokens are single use and expire after 14 days.", cwd=root)
    assert done.exit_code == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "tokens expire")
    return Project(root)


@pytest.fixture
def proj(tmp_path: Path) -> Project:
    """A project with git history, for the page tests."""
    return history_project(tmp_path / "proj")


@pytest.fixture
def client(proj: Project) -> Iterator[Client]:
    """``proj`` served by brv ui on loopback."""
    with served(proj) as c:
        yield c
