"""The semantic lane through a real /v1/embeddings server on loopback: it finds what other
words mean, a project's endpoint gets nothing until approved, the key is never printed, a
failing endpoint leaves the lexical results, and an edit re-embeds one entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from embed_server import EmbedServer, use_endpoint

from brv_vc.tree.project import Project

KEY = "sk-test-7f3a9c0d2e"
QUESTION = "automobile repair"


def _search(brv, project: Project, text: str = QUESTION) -> tuple[dict, str]:
    done = brv("search", text, "--json", "--no-record", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    return done.json(), done.stderr


def _paths(found: dict) -> list[str]:
    return [r["path"] for r in found["results"]]


def test_the_lane_finds_an_entry_that_shares_no_word_with_the_question(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    lexical, _ = _search(brv, semantic_tree)
    assert "team/notes/car_fixing.md" not in _paths(lexical)
    assert lexical["lanes"] == ["lexical"]
    use_endpoint(monkeypatch, embeddings_server)
    hybrid, _ = _search(brv, semantic_tree)
    assert _paths(hybrid)[0] == "team/notes/car_fixing.md"
    assert hybrid["lanes"] == ["lexical", "semantic"]
    text = brv("search", QUESTION, "--no-record", cwd=semantic_tree.root)
    assert "Lanes: lexical + semantic" in text.stdout
    assert embeddings_server.requests[0]["model"] == "hash-words"


def test_a_committed_project_endpoint_gets_no_request_until_approved(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMBED_KEY", KEY)
    config = semantic_tree.config_path
    config.write_text(config.read_text() + f"embeddings:\n  base_url: {embeddings_server.base_url}\n"
                      "  model: hash-words\n  api_key_env: EMBED_KEY\n")
    found, stderr = _search(brv, semantic_tree)
    assert embeddings_server.requests == []
    assert found["lanes"] == ["lexical"]
    assert "not approved on this machine" in stderr
    assert "brv llm approve --embeddings" in stderr
    # the LLM provider's approval is another section's: it does not cover the endpoint
    assert brv("llm", "approve", cwd=semantic_tree.root).exit_code != 0
    _search(brv, semantic_tree)
    assert embeddings_server.requests == []
    approved = brv("llm", "approve", "--embeddings", "--json", cwd=semantic_tree.root)
    assert approved.exit_code == 0, approved.stderr
    found, _ = _search(brv, semantic_tree)
    assert found["lanes"] == ["lexical", "semantic"]
    assert _paths(found)[0] == "team/notes/car_fixing.md"
    assert {h["Authorization"] for h in embeddings_server.headers} == {f"Bearer {KEY}"}
    # a pull that moves the URL needs a new approval
    config.write_text(config.read_text().replace(embeddings_server.base_url, embeddings_server.base_url + "/"))
    before = len(embeddings_server.requests)
    found, stderr = _search(brv, semantic_tree)
    assert len(embeddings_server.requests) == before
    assert "not approved" in stderr
    assert brv("llm", "revoke", "--embeddings", cwd=semantic_tree.root).exit_code == 0


def test_the_key_is_never_printed_when_the_endpoint_refuses_it(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use_endpoint(monkeypatch, embeddings_server)
    monkeypatch.setenv("BRV_EMBED_API_KEY_ENV", "EMBED_KEY")
    monkeypatch.setenv("EMBED_KEY", KEY)
    embeddings_server.fail = (401, f'{{"error": {{"message": "bad key {KEY}"}}}}')
    done = brv("search", "car engine", "--json", "--no-record", cwd=semantic_tree.root)
    assert done.exit_code == 0, done.stderr
    assert embeddings_server.headers[0]["Authorization"] == f"Bearer {KEY}"
    assert KEY not in done.stdout
    assert KEY not in done.stderr
    assert "the semantic lane failed" in done.stderr
    assert _paths(done.json())[0] == "team/notes/car_fixing.md"  # the lexical answer stands
    assert done.json()["lanes"] == ["lexical"]


def test_an_endpoint_failing_mid_search_falls_back_to_lexical_with_a_note(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use_endpoint(monkeypatch, embeddings_server)
    _search(brv, semantic_tree)  # the entries' vectors are kept; only the question is embedded next
    embeddings_server.fail = (503, "overloaded")
    found, stderr = _search(brv, semantic_tree, "coffee beans")
    assert found["lanes"] == ["lexical"]
    assert _paths(found)[0] == "team/notes/coffee_rota.md"
    assert "the semantic lane failed" in stderr
    assert "lexical results" in stderr
    monkeypatch.setenv("BRV_EMBED_BASE_URL", "http://127.0.0.1:9/v1")  # nothing listens
    found, stderr = _search(brv, semantic_tree, "coffee beans")
    assert found["lanes"] == ["lexical"]
    assert "cannot connect" in stderr


def test_an_edit_re_embeds_that_entry_alone_and_a_new_model_re_embeds_lazily(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use_endpoint(monkeypatch, embeddings_server)
    _search(brv, semantic_tree)
    assert len(embeddings_server.inputs()) == 3 + 1  # every entry, then the question
    embeddings_server.requests.clear()
    _search(brv, semantic_tree)
    assert embeddings_server.inputs() == [QUESTION]
    entry = Path(semantic_tree.tree / "team/notes/release_train.md")
    entry.write_text(entry.read_text().replace("second Tuesday", "first Monday"))
    embeddings_server.requests.clear()
    _search(brv, semantic_tree)
    embedded = embeddings_server.inputs()
    assert len(embedded) == 2
    assert "first Monday" in embedded[0]
    assert embedded[1] == QUESTION
    monkeypatch.setenv("BRV_EMBED_MODEL", "hash-words-2")
    embeddings_server.requests.clear()
    _search(brv, semantic_tree)
    assert len(embeddings_server.inputs()) == 3 + 1


def test_the_resident_session_of_mcp_and_the_web_view_says_which_lanes_answered(
        semantic_tree: Project, embeddings_server: EmbedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    from brv_vc.clock import utcnow
    from brv_vc.services.query import SearchSession

    session = SearchSession(semantic_tree)
    try:
        assert session.search(QUESTION, now=utcnow(), record=False).lanes == ("lexical",)
        use_endpoint(monkeypatch, embeddings_server)
        found = session.search(QUESTION, now=utcnow(), record=False)
    finally:
        session.close()
    assert found.lanes == ("lexical", "semantic")
    assert found.results[0].path == "team/notes/car_fixing.md"
