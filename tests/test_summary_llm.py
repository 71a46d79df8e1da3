"""The LLM engine against a real OpenAI-compatible server on loopback (runs once the
provider client from the llm area is merged)."""

from __future__ import annotations

import pytest

pytest.importorskip("brv_vc.llm.client")

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from llm_server import ChatServer, approve_provider
from summary_support import write_entry

from brv_vc.format.tokens import count_tokens
from brv_vc.services.derived.summaries import summarize
from brv_vc.tree.project import Project

NOW = datetime(2026, 2, 1, tzinfo=UTC)


def _reply(content: str) -> dict[str, Any]:
    return {
        "id": "x", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
    }


@contextmanager
def _serve(handler: Callable[[dict[str, Any]], dict[str, Any]]) -> Iterator[Any]:
    # ChatServer is written by the llm area; accept both a context manager and start/close.
    server = ChatServer(handler)
    if hasattr(server, "__enter__"):
        with server as running:
            yield running if running is not None else server
        return
    getattr(server, "start", lambda: None)()
    try:
        yield server
    finally:
        getattr(server, "close", getattr(server, "stop", lambda: None))()


def _configure(project: Project, base_url: str) -> None:
    project.config_path.write_text(
        f"version: 1\nllm:\n  base_url: {base_url}\n  model: m\n  timeout_seconds: 5\n"
    )
    approve_provider(project)


def test_llm_engine_writes_provider_text_at_temperature_zero(project: Project) -> None:
    def handler(request: dict[str, Any]) -> dict[str, Any]:
        prompt = request["messages"][-1]["content"]
        if "ONE line" in prompt:
            return _reply("LLM abstract of the entry.")
        if "overview" in prompt:
            return _reply("## Key points\n- from the model")
        return _reply("# Topic: b\n\nModel summary.")

    write_entry(project, "a/b/one.md", "One")
    with _serve(handler) as server:
        _configure(project, server.base_url)
        result = summarize(project, NOW, sleep=lambda s: None)
        requests = list(server.requests)
    assert result.engine == "llm"
    assert result.failed == ()
    assert (project.tree / "a/b/one.abstract.md").read_text() == "LLM abstract of the entry.\n"
    assert "from the model" in (project.tree / "a/b/one.overview.md").read_text()
    assert "Model summary." in (project.tree / "a/b/_index.md").read_text()
    assert requests
    assert all(r["temperature"] == 0 for r in requests)


def test_llm_output_over_budget_escalates_then_truncates(project: Project) -> None:
    budgets: list[int] = []

    def handler(request: dict[str, Any]) -> dict[str, Any]:
        budgets.append(request["max_tokens"])
        return _reply("far too long " * 2000)

    write_entry(project, "a/b/one.md", "One")
    with _serve(handler) as server:
        _configure(project, server.base_url)
        result = summarize(project, NOW, sleep=lambda s: None)
    assert result.failed == ()
    assert ("a/b/one.md", "truncated") in result.escalated
    assert 80 in budgets
    assert 48 in budgets
    abstract = (project.tree / "a/b/one.abstract.md").read_text()
    assert count_tokens(abstract.strip()) <= 80
    assert abstract.startswith("One:")  # the deterministic rung truncates extractive text


def test_an_unset_key_variable_is_a_provider_failure_like_any_other(
    project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unset key: no request goes out and the abstracts come from the deterministic rung,
    exactly as when the provider answers 500 every time."""
    monkeypatch.delenv("AUDIT_KEY", raising=False)
    write_entry(project, "a/b/one.md", "One")
    with _serve(lambda r: _reply("from the model")) as server:
        project.config_path.write_text(
            f"version: 1\nllm:\n  base_url: {server.base_url}\n  model: m\n"
            "  api_key_env: AUDIT_KEY\n  timeout_seconds: 5\n"
        )
        approve_provider(project)
        no_key = summarize(project, NOW, sleep=lambda s: None)
        sent = list(server.requests)
    no_key_abstract = (project.tree / "a/b/one.abstract.md").read_text()

    (project.tree / "a/b/one.abstract.md").unlink()
    (project.tree / "a/b/one.overview.md").unlink()
    with _serve(lambda r: (500, "down")) as server:  # type: ignore[arg-type,return-value]
        _configure(project, server.base_url)
        down = summarize(project, NOW, sleep=lambda s: None)
    assert sent == []
    assert no_key.engine == down.engine == "llm"
    assert no_key.failed == down.failed == ()
    assert ("a/b/one.md", "truncated") in no_key.escalated
    assert no_key.escalated == down.escalated
    assert no_key_abstract == (project.tree / "a/b/one.abstract.md").read_text()
    assert no_key_abstract.startswith("One:")
