"""brv query: each tier's trigger, cache invalidation, out-of-domain, provider failures."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from conftest import snapshot
from llm_server import ChatServer, approve_provider, reply, tool_call
from retrieval_util import filler, write_entry

from brv_vc.index import sync as syncmod
from brv_vc.index.terms import QueryError
from brv_vc.lifecycle.scoring import Signals
from brv_vc.lifecycle.sidecar import put_many
from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.query.answer import OUT_OF_SCOPE, query_tree
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 1, 20, tzinfo=UTC)
NO_WAIT = lambda seconds: None  # noqa: E731


def ask(project: Project, text: str, **kw: Any):  # type: ignore[no-untyped-def]
    return query_tree(project, text, now=NOW, sleep=NO_WAIT, **kw)


@pytest.fixture
def tree(project: Project) -> Project:
    write_entry(
        project,
        "auth/jwt/rotation.md",
        "Refresh Token Rotation",
        "Every refresh issues a new refresh token and revokes the old one.",
        summary="Refresh tokens are single-use.",
    )
    write_entry(
        project,
        "auth/jwt/lifetime.md",
        "Access Token Lifetime",
        "Access tokens expire after 15 minutes.",
    )
    write_entry(
        project,
        "billing/stripe/webhooks.md",
        "Stripe Webhooks",
        "Webhook signatures are verified with the endpoint secret.",
    )
    return project


def use_provider(project: Project, server: ChatServer, timeout: float = 5) -> None:
    project.config_path.write_text(
        f"version: 1\nllm:\n  base_url: {server.base_url}\n  model: m\n"
        f"  timeout_seconds: {timeout}\n"
    )
    approve_provider(project)


def make_core(project: Project, path: str) -> None:
    state = open_state(project)
    t = NOW.timestamp()
    put_many(state, {path: Signals(importance=95, maturity="core", updated_at=t, scored_at=t)})


def test_tier2_direct_answer_when_dominant(tree: Project) -> None:
    make_core(tree, "billing/stripe/webhooks.md")
    result = ask(tree, "stripe webhook signatures")
    assert result.tier == 2
    assert result.note == ""
    assert result.top_score >= 0.93
    assert result.matched[0].path == "billing/stripe/webhooks.md"
    assert "Sources:" in result.answer
    assert "billing/stripe/webhooks.md" in result.answer


def test_tier2_without_provider_says_so(tree: Project) -> None:
    result = ask(tree, "refresh token rotation")
    assert result.tier == 2
    assert result.top_score < 0.85
    assert "no LLM provider configured" in result.note
    assert result.matched[0].path == "auth/jwt/rotation.md"


def test_tier0_exact_and_tier1_fuzzy_cache(tree: Project) -> None:
    first = ask(tree, "Stripe  webhook signatures")
    assert first.tier == 2
    assert not first.cache_hit
    again = ask(tree, "stripe webhook SIGNATURES")
    assert again.tier == 0
    assert again.cache_hit
    assert again.answer == first.answer
    # tier 1: the same content words in another order and spelling
    similar = ask(tree, "Signatures of the Stripe webhook?")
    assert similar.tier == 1
    assert similar.cache_hit
    assert similar.answer == first.answer
    # one more content word asks something else (issue 16: Jaccard 0.75 was served from cache)
    assert ask(tree, "stripe webhook signatures verification").tier == 2
    # one-token queries never use the fuzzy cache
    assert ask(tree, "stripe").tier == 2


def test_cache_is_invalidated_by_a_curate_write(tree: Project) -> None:
    ask(tree, "stripe webhook signatures")
    write_entry(tree, "billing/stripe/refunds.md", "Stripe Refunds", "Refunds are manual.")
    assert ask(tree, "stripe webhook signatures").tier == 2


def test_cache_is_invalidated_by_a_hand_edit(tree: Project) -> None:
    ask(tree, "stripe webhook signatures")
    path = tree.tree / "auth/jwt/lifetime.md"
    path.write_text(path.read_text().replace("15 minutes", "10 minutes"))
    assert ask(tree, "stripe webhook signatures").tier == 2
    assert ask(tree, "stripe webhook signatures").tier == 0
    path.write_text(path.read_text().replace("10 minutes", "15 minutes"))  # undo: same tree
    assert ask(tree, "stripe webhook signatures").tier == 0


def test_cached_answer_is_rechecked_in_a_large_tree(
    tree: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a large tree an in-place edit (folder mtime kept) still reaches the next answer."""
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    ask(tree, "stripe webhook signatures")
    path = tree.tree / "billing/stripe/webhooks.md"
    folder = path.parent.stat().st_mtime_ns
    path.write_text(path.read_text().replace("endpoint secret", "endpoint secret v2"))
    os.utime(path.parent, ns=(folder, folder))
    again = ask(tree, "stripe webhook signatures")
    assert again.tier == 2
    assert "endpoint secret v2" in again.answer


def test_out_of_domain_zero_results(tree: Project) -> None:
    result = ask(tree, "xylophone tuning")
    assert result.out_of_domain
    assert result.answer.startswith(OUT_OF_SCOPE)
    assert "outside the scope of stored knowledge" in result.answer
    assert result.matched == ()


def test_out_of_domain_gate_on_larger_corpus(tree: Project) -> None:
    filler(tree, 55)
    result = ask(tree, "quantum chromodynamics echo")
    assert result.out_of_domain
    assert OUT_OF_SCOPE in result.answer
    assert not ask(tree, "refresh token rotation").out_of_domain


def test_tier3_single_call_with_prefetched_documents(tree: Project) -> None:
    refresh(tree, None, NOW)  # folder summaries, as curate or a hook leaves them
    with ChatServer(lambda r: reply("Refresh tokens rotate on every refresh.")) as server:
        use_provider(tree, server)
        result = ask(tree, "refresh token rotation")
        assert len(server.requests) == 1
        body = server.requests[0]
    assert result.tier == 3
    assert result.answer == "Refresh tokens rotate on every refresh."
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 1024
    assert "tools" not in body
    prompt = body["messages"][-1]["content"]
    assert "refresh token rotation" in prompt
    assert "Refresh Token Rotation (auth/jwt/rotation.md)" in prompt
    assert all(m.score >= 0.7 for m in result.matched)
    assert len(result.matched) <= 5
    # seed 000: LLM tiers get the manifest's folder summaries as structural context
    system = body["messages"][0]["content"]
    assert "How the knowledge base is organised (folder summaries):" in system
    assert "### auth/jwt\n" in system
    assert "Refresh Token Rotation" in system.split("folder summaries):", 1)[1]


def old_tree(project: Project) -> Project:
    write_entry(
        project,
        "auth/jwt/rotation.md",
        "Refresh Token Rotation",
        "Every refresh issues a new refresh token.",
        updated="2024-01-01T00:00:00Z",
    )
    write_entry(
        project, "misc/x/other.md", "Other", "unrelated words", updated="2024-01-01T00:00:00Z"
    )
    return project


def test_tier4_agentic_loop_uses_search_and_read_entry(project: Project) -> None:
    old_tree(project)
    script = [
        reply("", [tool_call("search", {"query": "rotation"}, "c1")]),
        reply("", [tool_call("read_entry", {"path": "auth/jwt/rotation.md"}, "c2")]),
        reply("Each refresh issues a new token (auth/jwt/rotation.md)."),
    ]
    with ChatServer(lambda r: script.pop(0)) as server:
        use_provider(project, server)
        result = ask(project, "refresh rotation")
        bodies = list(server.requests)
    assert result.tier == 4
    assert "new token" in result.answer
    assert result.matched[0].path == "auth/jwt/rotation.md"
    assert all(b["temperature"] == 0.5 and b["max_tokens"] == 2048 for b in bodies)
    assert {t["function"]["name"] for t in bodies[0]["tools"]} == {"search", "read_entry"}
    search_result = bodies[1]["messages"][-1]
    assert search_result["role"] == "tool"
    assert "auth/jwt/rotation.md" in search_result["content"]
    assert "Every refresh issues a new refresh token" in bodies[2]["messages"][-1]["content"]


def test_tier4_is_bounded_and_keeps_the_tier2_answer(project: Project) -> None:
    old_tree(project)
    with ChatServer(lambda r: reply("", [tool_call("search", {"query": "x"})])) as server:
        use_provider(project, server)
        result = ask(project, "refresh rotation", max_iterations=3)
        assert len(server.requests) == 3
    assert result.tier == 2
    assert result.error
    assert "3 iterations" in result.error
    assert result.matched[0].path == "auth/jwt/rotation.md"


def test_read_entry_refuses_escapes(project: Project) -> None:
    old_tree(project)
    script = [reply("", [tool_call("read_entry", {"path": "../../config.yaml"})]), reply("done")]
    with ChatServer(lambda r: script.pop(0)) as server:
        use_provider(project, server)
        ask(project, "refresh rotation")
        tool_message = server.requests[1]["messages"][-1]["content"]
    assert tool_message.startswith("error:")
    assert "leaves the context tree" in tool_message


def test_provider_timeout_keeps_the_tier2_answer(tree: Project, brv) -> None:
    def slow(request: dict[str, Any]) -> dict[str, Any]:
        time.sleep(0.3)
        return reply("late")

    with ChatServer(slow) as server:
        use_provider(tree, server, timeout=0.05)
        result = ask(tree, "refresh token rotation")
    assert result.tier == 2
    assert "no answer within" in (result.error or "")
    assert result.matched[0].path == "auth/jwt/rotation.md"


def test_provider_garbage_keeps_the_tier2_answer_on_the_cli(tree: Project, brv) -> None:
    with ChatServer(lambda r: (200, "<html>oops</html>")) as server:
        use_provider(tree, server)
        result = brv("query", "refresh token rotation", cwd=tree.root)
    assert result.exit_code == 0
    assert "the LLM provider's reply is not JSON (first bytes: '<html>oops</html>')" in (
        result.stderr
    )
    assert "not a chat completion" not in result.stderr
    assert "auth/jwt/rotation.md" in result.stdout
    assert "[tier 2 ·" in result.stdout


def test_cli_reports_tier_time_and_score(tree: Project, brv) -> None:
    text = brv("query", "refresh token rotation", cwd=tree.root)
    assert text.exit_code == 0
    assert "[tier 2 · " in text.stdout
    assert "top score 0." in text.stdout
    data = brv("query", "refresh token rotation", "--json", cwd=tree.root).json()
    assert data["tier"] == 0
    assert data["cache_hit"] is True
    assert isinstance(data["duration_ms"], int)
    assert data["top_score"] > 0


@pytest.mark.parametrize("text", ["", "  ", "?? !!", "what is the"])
def test_bad_questions(tree: Project, brv, text: str) -> None:
    with pytest.raises(QueryError):
        ask(tree, text)
    before = snapshot(tree.root)
    result = brv("query", text, cwd=tree.root)
    assert result.exit_code == 1
    assert "hint:" in result.stderr
    assert snapshot(tree.root) == before


def test_query_syntax_characters_are_plain_words(tree: Project) -> None:
    result = ask(tree, 'rotation" OR title:* NEAR(-token)')
    assert result.matched
    assert result.matched[0].path == "auth/jwt/rotation.md"


def test_configuring_a_provider_starts_a_fresh_cache(tree: Project) -> None:
    assert ask(tree, "refresh token rotation").tier == 2
    with ChatServer(lambda r: reply("From the LLM.")) as server:
        use_provider(tree, server)
        assert ask(tree, "refresh token rotation").tier == 3
        assert ask(tree, "refresh token rotation").tier == 0


def test_an_unset_key_variable_keeps_the_tier2_answer_and_names_it(
    tree: Project, brv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("AUDIT_KEY", raising=False)
    message = (
        "the environment variable AUDIT_KEY named by llm.api_key_env is not set; "
        "export it or remove llm: from .brv/config.yaml"
    )
    with ChatServer(lambda r: reply("From the LLM.")) as server:
        tree.config_path.write_text(
            f"version: 1\nllm:\n  base_url: {server.base_url}\n  model: m\n"
            "  api_key_env: AUDIT_KEY\n"
        )
        approve_provider(tree)
        result = ask(tree, "refresh token rotation")
        cli = brv("query", "refresh token rotation", cwd=tree.root)
        data = brv("query", "refresh token rotation", "--json", cwd=tree.root).json()
        assert server.requests == []  # no request went out without the key
        monkeypatch.setenv("AUDIT_KEY", "sk-secret-123")
        fixed = ask(tree, "refresh token rotation")  # the failed answer was not cached
        assert server.headers[0]["Authorization"] == "Bearer sk-secret-123"
    assert result.tier == 2
    assert result.error == message
    assert result.note == f"the LLM provider failed ({message}); this is the tier-2 answer"
    assert result.matched[0].path == "auth/jwt/rotation.md"
    assert cli.exit_code == 0
    assert message in cli.stderr
    assert "[tier 2 ·" in cli.stdout
    assert data["tier"] == 2
    assert data["error"] == message
    assert fixed.tier > 2  # tier 3 or 4 depending on the hits recorded meanwhile
    assert not fixed.cache_hit
    assert fixed.answer == "From the LLM."


def test_the_key_never_appears_in_query_output(
    tree: Project, brv, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AUDIT_KEY", "sk-secret-123")
    with ChatServer(lambda r: (401, "no such key: sk-secret-123")) as server:
        tree.config_path.write_text(
            f"version: 1\nllm:\n  base_url: {server.base_url}\n  model: m\n"
            "  api_key_env: AUDIT_KEY\n"
        )
        approve_provider(tree)
        text = brv("query", "refresh token rotation", cwd=tree.root)
        as_json = brv("query", "refresh token rotation", "--json", cwd=tree.root)
        assert server.headers[0]["Authorization"] == "Bearer sk-secret-123"
    assert "HTTP 401" in text.stderr
    assert as_json.json()["tier"] == 2
    for out in (text.stdout, text.stderr, as_json.stdout, as_json.stderr):
        assert "sk-secret-123" not in out
