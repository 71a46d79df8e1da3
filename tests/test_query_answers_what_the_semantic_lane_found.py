"""``brv query`` and ``brv search`` say what the lanes found: a question whose words are in no
entry is outside the scope for the lexical ranking alone, but when the semantic lane (a real
/v1/embeddings server on loopback) finds the entry that means it, the answer is that entry,
not "outside the scope"; a question neither lane finds is still out of domain."""

from __future__ import annotations

import pytest
from embed_server import EmbedServer

from brv_vc.tree.project import Project

QUESTION = "automobile repair"  # no entry holds either word; 'Car fixing' means it
UNRELATED = "quantum lattice chromodynamics"
SCOPE = "outside the scope"


@pytest.fixture
def tree(project: Project, brv) -> Project:
    for title, content in (("Car fixing", "How we fix the car engine in the garage."),
                           ("Release train", "Releases ship every second Tuesday."),
                           ("Coffee rota", "Who brings the coffee beans each week.")):
        done = brv("curate", "add", "team/notes", "--title", title, "--content", content,
                   cwd=project.root)
        assert done.exit_code == 0, done.stderr
    return project


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch):
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_MODEL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    with EmbedServer() as running:
        yield running


def _lane_on(monkeypatch: pytest.MonkeyPatch, server: EmbedServer) -> None:
    monkeypatch.setenv("BRV_EMBED_BASE_URL", server.base_url)
    monkeypatch.setenv("BRV_EMBED_MODEL", "hash-words")


def _query(brv, project: Project, text: str) -> tuple[dict, str]:
    done = brv("query", text, "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    as_text = brv("query", text, cwd=project.root)  # the cached answer: the same words
    assert as_text.exit_code == 0, as_text.stderr
    return done.json(), as_text.stdout


def test_query_answers_with_the_entry_the_semantic_lane_found(
        tree: Project, brv, server: EmbedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    lexical, text = _query(brv, tree, QUESTION)
    assert lexical["out_of_domain"] is True
    assert SCOPE in text
    _lane_on(monkeypatch, server)
    found, text = _query(brv, tree, QUESTION)
    assert found["lanes"] == ["lexical", "semantic"]
    assert found["out_of_domain"] is False
    assert found["matched"][0]["path"] == "team/notes/car_fixing.md"
    assert SCOPE not in found["answer"]
    assert SCOPE not in text
    assert "Car fixing" in text
    searched = brv("search", QUESTION, "--no-record", cwd=tree.root)
    assert searched.exit_code == 0, searched.stderr
    assert SCOPE not in searched.stdout
    assert "found these by meaning" in searched.stderr


def test_a_question_neither_lane_finds_is_still_outside_the_scope(
        tree: Project, brv, server: EmbedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    _lane_on(monkeypatch, server)
    found, text = _query(brv, tree, UNRELATED)
    assert found["lanes"] == ["lexical", "semantic"]
    assert found["out_of_domain"] is True
    assert found["matched"] == []
    assert SCOPE in text
