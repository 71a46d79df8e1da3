"""The candidates re-scored with ``lengths``' k1 and b, here issue 26's k1 2 and b 1: a short
answer saying a word once goes before a long section saying it six times in eight times the
length (FTS5's k1 1.2, b 0.75 put it after).

Since issue 37 brv's defaults are the stemmed BM25's k1 1.5 and b 0.75 (b 1 lost on short
records; index/lengths.py): these tests pin the re-score itself, at issue 26's values."""

from __future__ import annotations

import random
import sqlite3
from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st
from retrieval_util import write_entry

from brv_vc.index import lengths
from brv_vc.index.postings import K1, averages, idf
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path

NOW = datetime(2026, 1, 20, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _rescored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 26's re-score, k1 2 and b 1 (a test may set FTS5's own again)."""
    monkeypatch.setattr(lengths, "K1", 2.0)
    monkeypatch.setattr(lengths, "B", 1.0)


def _words(rnd: random.Random, n: int) -> str:
    return " ".join(f"filler{rnd.randrange(500)}" for _ in range(n))


def _tree(project: Project) -> None:
    """20 notes of ~40 words; a 7-word answer saying "widget" once; an ~80-word section, 6."""
    rnd = random.Random(7)
    for i in range(20):
        write_entry(project, f"misc/notes/n{i}.md", f"Note {i}", _words(rnd, 36))
    write_entry(project, "faq/short/answer.md", "Answer", "The widget is " + _words(rnd, 3))
    parts = [_words(rnd, 12) for _ in range(6)]
    write_entry(project, "guide/long/section.md", "Section",
                " widget ".join(parts) + " widget " + _words(rnd, 4))


def test_a_short_answer_goes_before_a_long_section(project: Project) -> None:
    _tree(project)
    found = search_tree(project, "widget", now=NOW, record=False)
    assert [h.path for h in found.results] == ["faq/short/answer.md", "guide/long/section.md"]


def test_with_fts5s_own_k1_and_b_the_long_section_went_first(
    project: Project, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lengths, "K1", K1)
    monkeypatch.setattr(lengths, "B", lengths.FTS_B)
    _tree(project)
    found = search_tree(project, "widget", now=NOW, record=False)
    assert [h.path for h in found.results] == ["guide/long/section.md", "faq/short/answer.md"]


def test_the_score_is_bm25_with_k1_and_b_computed_from_the_counts(project: Project) -> None:
    """The short answer's score from its relevance (one term, held: x 1.5 coverage boost; the
    title does not name it), against BM25 computed from "widget" said once in its length."""
    _tree(project)
    hit = search_tree(project, "widget", now=NOW, record=False).results[0]
    conn = sqlite3.connect(index_db_path(project))
    try:
        rowid = conn.execute("SELECT id FROM docs WHERE path = ?", (hit.path,)).fetchone()[0]
        size = lengths.sizes(conn, [rowid])[rowid]
        count, average = averages(conn)
    finally:
        conn.close()
    assert size == 1 + 7 + 4  # title; "Narrative" heading + 6 words; faq short answer md
    k = lengths.K1 * (1 - lengths.B + lengths.B * size / average)
    t = 1 * (lengths.K1 + 1) / (1 + k) * (K1 + 1) / (lengths.K1 + 1)
    expected = 2 * idf(2, count) * t  # the word and its prefix, both in 2 documents
    score = hit.relevance / (1 - hit.relevance) / 1.5
    assert score == pytest.approx(expected, rel=2e-3)


def test_fts5s_own_k1_and_b_give_its_frequency_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lengths, "K1", K1)
    monkeypatch.setattr(lengths, "B", lengths.FTS_B)
    for t in (0.1, 1.0, 2.0):
        for size in (3, 40, 400):
            assert lengths.saturated(t, size, 40.0) == pytest.approx(t)


@given(t=st.floats(min_value=0.0, max_value=K1 + 1), size=st.integers(1, 20000),
       average=st.floats(min_value=1.0, max_value=5000.0))
def test_the_frequency_stays_under_fts5s_bound(t: float, size: int, average: float) -> None:
    """Whatever the length, T < k1 + 1 = 2.2: postings.bound still holds for every phrase."""
    got = lengths.saturated(t, size, average)
    assert 0.0 <= got < K1 + 1
    assert lengths.saturated(t * 0.5, size, average) <= got + 1e-12
