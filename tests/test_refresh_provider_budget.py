"""The refresh after a tree change never waits on the LLM provider.

A real chat-completions server on loopback counts the calls; nothing is timed: a 5 s
provider timeout never fits the 0.5 s refresh budget, so no call may be made at all, and a
failing provider is called once, reported, and its work left queued for ``brv summarize``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from llm_server import ChatServer, approve_provider, reply
from summary_support import write_entry

from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.derived.summaries import refresh_summaries, summarize
from brv_vc.summary import queue
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 2, 1, tzinfo=UTC)


def _configure(project: Project, base_url: str, timeout: float = 5) -> None:
    project.config_path.write_text(
        f"version: 1\nllm:\n  base_url: {base_url}\n  model: m\n  timeout_seconds: {timeout}\n"
    )
    approve_provider(project)


def _model(request: dict[str, Any]) -> dict[str, Any]:
    prompt = request["messages"][-1]["content"]
    if "ONE line" in prompt:
        return reply("Model abstract.")
    if "overview" in prompt:
        return reply("## Key points\n- from the model")
    return reply("# Topic: b\n\nModel folder summary.")


def _counts(project: Project) -> dict[str, int]:
    conn = open_state(project)
    try:
        return queue.counts(conn)
    finally:
        conn.close()


def test_refresh_makes_no_call_whose_timeout_exceeds_its_budget(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    slept: list[float] = []
    with ChatServer(_model) as server:
        _configure(project, server.base_url)
        report = refresh(project, ["a/b/one.md"], NOW)
        assert server.requests == []
        # not a failure: no warning, the work waits in the queue for brv summarize
        assert report.problems == ()
        assert any("left for 'brv summarize'" in step for step in report.steps)
        assert _counts(project) == {"pending": 1}
        assert not (project.tree / "a/b/one.abstract.md").exists()
        # the folder summaries a reader needs now are extractive drafts
        assert "Model folder summary." not in (project.tree / "a/b/_index.md").read_text()
        result = summarize(project, NOW, sleep=slept.append)
        assert server.requests  # brv summarize asks the provider
    assert slept == []
    assert result.done == 1
    assert (project.tree / "a/b/one.abstract.md").read_text() == "Model abstract.\n"
    # the drafts are replaced by the provider's summaries
    assert "Model folder summary." in (project.tree / "a/b/_index.md").read_text()
    assert _counts(project) == {"done": 1}


def test_a_failing_provider_is_called_once_reported_and_its_work_stays_queued(
    project: Project,
) -> None:
    write_entry(project, "a/b/one.md", "One")
    slept: list[float] = []
    with ChatServer(lambda request: (500, "overloaded")) as server:
        _configure(project, server.base_url)
        # a budget wide enough for the 5 s timeout: the call is made, once, without retry
        summary = refresh_summaries(project, ["a/b/one.md"], NOW, budget_seconds=3600,
                                    sleep=slept.append)
        calls = len(server.requests)
    assert calls == 1
    assert slept == []
    failures = [p for p in summary.problems if "LLM provider" in p]
    assert len(failures) == 1
    assert "HTTP 500" in failures[0]
    assert "stay queued" in failures[0]
    assert "run 'brv summarize'" in failures[0]
    # not silently replaced by the extractive engine: the abstract waits in the queue
    assert not (project.tree / "a/b/one.abstract.md").exists()
    assert _counts(project) == {"pending": 1}


def test_summarize_keeps_the_full_retries(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One")
    slept: list[float] = []
    with ChatServer(lambda request: (503, "down")) as server:
        _configure(project, server.base_url)
        result = summarize(project, NOW, sleep=slept.append)
        calls = len(server.requests)
    # each rung of the ladder (normal, aggressive) tries 4 times with the backoff
    assert slept[:3] == [0.5, 1.0, 2.0]
    assert calls >= 8
    assert result.done == 1
    assert ("a/b/one.md", "truncated") in result.escalated


def test_curate_with_a_slow_provider_writes_at_once_and_calls_nobody(project: Project,
                                                                     brv) -> None:
    with ChatServer(_model) as server:
        _configure(project, server.base_url, timeout=30)
        result = brv("curate", "add", "kb/x", "--title", "Slow one", "--content", "slow test",
                     cwd=project.root)
        assert result.exit_code == 0, result.stderr
        assert server.requests == []
        assert "warning" not in result.stderr
        assert (project.tree / "kb/x/slow_one.md").exists()
        assert not (project.tree / "kb/x/slow_one.abstract.md").exists()
        done = brv("summarize", "--json", cwd=project.root)
        assert done.exit_code == 0, done.stderr
        assert server.requests
    assert (project.tree / "kb/x/slow_one.abstract.md").read_text() == "Model abstract.\n"
