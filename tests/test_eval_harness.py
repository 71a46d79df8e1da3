"""The retrieval evaluation harness: its metrics, its question rule and our own labelled set."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import eval_sets
from bench.eval_retrieval import scores
from bench.eval_sets import DataMissing, project_knowledge, question_of, tldr


def test_metrics_of_one_ranking() -> None:
    got = scores(["x", "a", "y", "z", "w", "b"], frozenset({"a", "b"}))
    assert got["R@5"] == 0.5
    assert got["R@10"] == 1.0
    assert got["MRR"] == 0.5
    assert 0.0 < got["nDCG@10"] < 1.0
    assert scores(["a"], frozenset({"a"}))["nDCG@10"] == 1.0
    assert scores(["x"], frozenset({"a"})) == {"R@5": 0.0, "R@10": 0.0, "nDCG@10": 0.0, "MRR": 0.0}


def test_tldr_question_drops_the_command_name() -> None:
    assert question_of("git add", "Stage changed files for a commit.") == (
        "What command do I use to stage changed files for a commit?"
    )
    assert "tar" not in question_of("tar", "Archiving utility, tar files.").lower()


def test_every_label_of_our_set_names_a_document() -> None:
    """A docs heading renamed without updating bench/data fails here, not silently in bench."""
    (proj,), unanswerable = project_knowledge()
    keys = {d.key for d in proj.docs}
    raw = json.loads((Path(eval_sets.__file__).parent / "data" / "project_knowledge.json").read_text())
    assert len(proj.questions) == len(raw["questions"]) >= 50
    assert all(q.relevant and q.relevant <= keys for q in proj.questions)
    assert len(unanswerable) >= 5


def test_missing_public_data_says_how_to_fetch(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DataMissing):
        tldr(tmp_path, 10, 3)


def test_long_questions_are_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """The OOD report's long questions: more than LONG_TERMS terms, flagged / asked per kind."""
    from bench import eval_retrieval as ev

    monkeypatch.setattr(ev, "LONG", {"answerable": [0, 0], "unanswerable": [0, 0]})
    ev.count_long("answerable", "why did we drop redis", True)
    long_text = " ".join(f"word{i}" for i in range(ev.LONG_TERMS + 1))
    ev.count_long("answerable", long_text, True)
    ev.count_long("answerable", long_text, False)
    ev.count_long("unanswerable", long_text, True)
    assert ev.LONG == {"answerable": [1, 2], "unanswerable": [1, 1]}
