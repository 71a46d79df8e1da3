"""No credential reaches brv's output, whatever produced the text: git's messages on a failed
push (text and --json), brv's own errors, the MCP error objects, the crash log.

Real git and a real bare remote whose URLs carry a password or a token; the scrubbing rule is
``brv_vc.scrub`` (its cases are listed below, plain, for the hostile-input corpus).
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import run_brv
from vc_helpers import free_port, git, standalone_member

from brv_vc.mcp.tools import ToolFailure, Tools
from brv_vc.scrub import scrub

PASSWORD = "s3cretPassw0rd"
TOKEN = "glpat-tokentokentokentoken01"

# (text, what must not survive, what must) for the corpus of hostile inputs
CASES = [
    ("https://alice:s3cretPassw0rd@host/r.git", PASSWORD, "https://alice:***@host/r.git"),
    ("fatal: unable to access 'https://alice:pa/ss@h:9/r.git/': bad", "pa/ss", "alice:***@"),
    ("https://h/r.git?access_token=abc123XYZ&x=1", "abc123XYZ", "access_token=***&x=1"),
    ("https://h/v1?key=AIzaSyD-123abc", "AIzaSyD-123abc", "?key=***"),
    ("GET /x?token=t0ken9&sig=zzz HTTP/1.1", "t0ken9", "token=***&sig=***"),
    ("Authorization: Bearer eyJhbGciOi.payload.sig", "eyJhbGciOi", "Authorization: Bearer ***"),
    ("authorization: Basic YWxpY2U6czNjcmV0", "YWxpY2U6czNjcmV0", "authorization: Basic ***"),
    ("X-Api-Key: k3y-value", "k3y-value", "X-Api-Key: ***"),
    ("sent Bearer abcdefgh12345678 upstream", "abcdefgh12345678", "Bearer ***"),
    (f"clone of https://{TOKEN}@gitlab.com/x.git", TOKEN, "https://***@gitlab.com/x.git"),
    ("ghp_abcdefghijklmnopqrstuvwxyz0123 leaked", "ghp_abcdefghij", "*** leaked"),
]
# placeholders in documentation are no credentials: kept as written
KEPT = ["Authorization: Bearer <token>", "Authorization: Bearer $TOKEN",
        "https://h/x?api_key=YOUR_KEY", "https://user:${PASSWORD}@host/x",
        "git@github.com:org/repo.git", "https://host:8080/path", "ssh://git@host:22/x"]


@pytest.mark.parametrize(("text", "secret", "shown"), CASES)
def test_scrub_masks_each_credential_shape(text: str, secret: str, shown: str) -> None:
    out = scrub(text)
    assert secret not in out
    assert shown in out


@pytest.mark.parametrize("text", KEPT)
def test_scrub_keeps_placeholders_and_plain_urls(text: str) -> None:
    assert scrub(text) == text


@pytest.fixture
def solo(tmp_path: Path) -> Path:
    """A standalone knowledge repository with one commit and a real bare remote."""
    member = standalone_member(tmp_path)
    member.ok("curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "x")
    member.ok("vc", "add")
    member.ok("vc", "commit", "-m", "one")
    git(tmp_path, "init", "-q", "--bare", str(tmp_path / "remote.git"))
    return member.root


def _never_shown(root: Path, *args: str, secret: str) -> None:
    for extra in ((), ("--json",)):
        result = run_brv(*args, *extra, cwd=root)
        assert result.exit_code == 1, result
        assert secret not in result.stdout + result.stderr, (extra, result)


def test_a_failed_push_never_prints_the_token_in_the_remotes_url(solo: Path) -> None:
    # git quotes the URL of a remote it cannot reach; it hides a password, not a query token
    url = f"http://127.0.0.1:{free_port()}/remote.git?access_token={PASSWORD}"
    git(solo / ".brv/context-tree", "remote", "add", "origin", url)
    _never_shown(solo, "vc", "push", "-u", "origin", "main", secret=PASSWORD)
    listed = run_brv("vc", "remote", cwd=solo)
    assert PASSWORD not in listed.stdout
    assert "access_token=***" in listed.stdout


def test_a_failed_push_never_prints_a_password_git_cannot_parse(solo: Path) -> None:
    url = f"https://alice:{PASSWORD}/x@127.0.0.1:{free_port()}/remote.git"
    git(solo / ".brv/context-tree", "remote", "add", "origin", url)
    _never_shown(solo, "vc", "push", "-u", "origin", "main", secret=PASSWORD)


def test_a_push_to_a_url_with_a_password_never_prints_it(solo: Path, tmp_path: Path) -> None:
    git(solo / ".brv/context-tree", "remote", "add", "origin", str(tmp_path / "remote.git"))
    url = f"file://alice:{PASSWORD}@{tmp_path / 'remote.git'}"
    _never_shown(solo, "vc", "push", url, "main", secret=PASSWORD)  # brv's own message


def test_mcp_errors_and_the_crash_log_never_hold_a_credential(solo: Path) -> None:
    tools = Tools(solo, lambda: datetime(2026, 3, 1, tzinfo=UTC))
    try:
        with pytest.raises(ToolFailure) as refused:  # git quotes the revision back
            tools.vc_diff(f"https://alice:{PASSWORD}@host/x")
        assert refused.value.payload["error"]["code"] in ("git", "not_found", "usage")
        assert PASSWORD not in str(refused.value.payload)
    finally:
        tools.close()
    from brv_vc.cli.main import _log_internal

    log = _log_internal(RuntimeError(f"Authorization: Bearer {PASSWORD}"))
    assert PASSWORD not in log.read_text()
    assert os.environ["BRV_LOG_DIR"] in str(log)


def test_brv_ui_errors_never_hold_a_credential(tmp_path: Path) -> None:
    from urllib.parse import quote

    from ui_support import history_project, served

    with served(history_project(tmp_path / "proj")) as client:
        page = client.get("/entry?path=" + quote(f"auth/jwt/x.md?access_token={PASSWORD}"))
        assert page.status == 404
        assert "access_token=***" in page.body
        assert PASSWORD not in page.body
