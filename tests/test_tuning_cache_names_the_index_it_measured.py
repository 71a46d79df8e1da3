"""bench/tune_ranking.py's cache: a figure is read back only for the index and sample it was
measured on (issue 37 item 5): another schema, another stemmer, another share of questions, or a
cache written before its keys named them, is asked again, never reused."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bench import tune_ranking as tr


def _args(questions: int = 60) -> argparse.Namespace:
    return argparse.Namespace(questions=questions, conversations=10, tldr_pages=1500)


def _config() -> tr.Config:
    return dict(tr.START)


def test_the_key_names_the_schema_the_stems_and_the_sample(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from brv_vc.index import db

    now = tr.fingerprint(_args())
    assert f"schema {db.SCHEMA_VERSION}" in now
    assert "regular fair" in now  # Snowball's stems of "regularly" and "fairly"
    assert tr.fingerprint(_args(questions=0)) != now
    monkeypatch.setattr(db, "SCHEMA_VERSION", "10")
    assert tr.key_of(_config(), tr.fingerprint(_args())) != tr.key_of(_config(), now)


def test_a_cache_of_another_index_is_not_read_back(tmp_path: Path) -> None:
    config = _config()
    figures = {"debian": {"nDCG@10": 0.9, "R@10": 0.9}}
    cache = tmp_path / "tune.json"
    # written before the keys named the index (the parameters alone), and under another schema
    old_style = json.dumps([config[name] for name, _ in tr.COORDS])
    other_schema = tr.key_of(config, "schema 10, porter (regular fair generous run), questions 60")
    cache.write_text(json.dumps({old_style: figures, other_schema: figures}))
    tuner = tr.Tuner({"debian": []}, {"debian": {"nDCG@10": 1.0, "R@10": 1.0}}, cache,
                     tr.fingerprint(_args()))
    tuner.cached_only = True
    assert tuner.objective(config, ["debian"]) == float("-inf")  # not in the cache: not reused

    same = tr.key_of(config, tuner.prefix)
    cache.write_text(json.dumps({same: figures}))
    tuner = tr.Tuner({"debian": []}, {"debian": {"nDCG@10": 1.0, "R@10": 1.0}}, cache,
                     tr.fingerprint(_args()))
    tuner.cached_only = True
    assert tuner.objective(config, ["debian"]) == pytest.approx(1.8)  # mean 0.9 + worst 0.9
