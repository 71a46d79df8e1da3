"""``brv query`` and ``brv search`` say what the lanes found: a question whose words are in no
entry is outside the scope for the lexical ranking alone, but when the semantic lane (a real
/v1/embeddings server on loopback) finds the entry that means it, the answer is that entry,
not "outside the scope"; a question neither lane finds is still out of domain."""

from __future__ import annotations

import pytest
from embed_server import EmbedServer, use_endpoint

from brv_vc.tree.project import Project

QUESTION = "automobile repair"  # no entry holds either word; 'Car fixing' means it
UNRELATED = "quantum lattice chromodynamics"
SCOPE = "outside the scope"


def _query(brv, project: Project, text: str) -> tuple[dict, str]:
    done = brv("query", text, "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    as_text = brv("query", text, cwd=project.root)  # the cached answer: the same words
    assert as_text.exit_code == 0, as_text.stderr
    return done.json(), as_text.stdout


def test_query_answers_with_the_entry_the_semantic_lane_found(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    lexical, text = _query(brv, semantic_tree, QUESTION)
    assert lexical["out_of_domain"] is True
    assert SCOPE in text
    use_endpoint(monkeypatch, embeddings_server)
    found, text = _query(brv, semantic_tree, QUESTION)
    assert found["lanes"] == ["lexical", "semantic"]
    assert found["out_of_domain"] is False
    assert found["matched"][0]["path"] == "team/notes/car_fixing.md"
    assert SCOPE not in found["answer"]
    assert SCOPE not in text
    assert "Car fixing" in text
    searched = brv("search", QUESTION, "--no-record", cwd=semantic_tree.root)
    assert searched.exit_code == 0, searched.stderr
    assert SCOPE not in searched.stdout
    assert "found these by meaning" in searched.stderr


def test_a_question_neither_lane_finds_is_still_outside_the_scope(
        semantic_tree: Project, brv, embeddings_server: EmbedServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    use_endpoint(monkeypatch, embeddings_server)
    found, text = _query(brv, semantic_tree, UNRELATED)
    assert found["lanes"] == ["lexical", "semantic"]
    assert found["out_of_domain"] is True
    assert found["matched"] == []
    assert SCOPE in text
