"""brv llm status says which provider a query would reach and why; revoke stops a provider again."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_server import ChatServer, reply
from test_llm_provider_trust import SECRET, provider, question
from vc_helpers import Member, git, in_project_app

ROT = "auth/jwt/token_rotation.md"


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Member:
    monkeypatch.setenv("CLOUD_TOKEN", SECRET)
    return in_project_app(tmp_path, ROT)


def test_status_follows_approval_and_revoke_stops_sending(app: Member) -> None:
    assert app.ok("llm", "status", "--json").json()["source"] == "none"
    with ChatServer(lambda r: reply("From the provider.")) as server:
        provider(app.root, server.base_url)
        git(app.root, "add", ".brv/config.yaml")
        git(app.root, "commit", "-q", "-m", "teammate: our provider")
        shown = app.ok("llm", "status", "--json").json()
        assert shown["source"] == "project-unapproved"
        assert shown["base_url"] == server.base_url
        assert (shown["api_key_env"], shown["key_set"]) == ("CLOUD_TOKEN", True)
        text = app.ok("llm", "status").stdout
        assert "NOT approved on this machine" in text
        assert SECRET not in text + str(shown)
        app.ok("llm", "approve")
        assert app.ok("llm", "status", "--json").json()["source"] == "project-approved"
        question(app)
        assert len(server.requests) == 1
        assert app.ok("llm", "revoke", "--json").json()["revoked"] is True
        assert app.ok("llm", "status", "--json").json()["source"] == "project-unapproved"
        question(app)
        assert len(server.requests) == 1  # nothing more was sent after the revoke
        again = app.ok("llm", "revoke")
        assert "nothing to withdraw" in again.stdout


def test_the_users_own_provider_is_named_as_such(app: Member,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRV_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("BRV_LLM_MODEL", "mine")
    shown = app.ok("llm", "status", "--json").json()
    assert (shown["source"], shown["model"], shown["api_key_env"]) == ("user", "mine", None)
    assert "your own settings" in app.ok("llm", "status").stdout


def test_status_on_a_broken_config_is_a_clear_refusal(app: Member) -> None:
    (app.root / ".brv/config.yaml").write_text("version: 1\nllm: [\n")
    refused = app.fails("llm", "status")
    assert ".brv/config.yaml" in refused.stderr
