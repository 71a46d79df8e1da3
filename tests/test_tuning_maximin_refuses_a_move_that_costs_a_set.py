"""bench/tune_ranking.py's second procedure (issue 37 item 5, stop 23): maximin takes a move
only when it lifts the worst training set and costs no training set more than 0.005, where
mean+worst takes any move that lifts the mean plus the worst."""

from __future__ import annotations

import json
from pathlib import Path

from bench import tune_ranking as tr

PREFIX = "a fixed sample"


def _tuner(tmp_path: Path, figures: dict[str, dict[str, float]]) -> tuple[tr.Tuner, tr.Config]:
    """A tuner whose only measured configurations are issue 26's values and the first
    coordinate's first other candidate, with the given nDCG@10 of sets a and b (baseline 1)."""
    start = dict(tr.START)
    name, candidates = tr.COORDS[0]
    moved = {**start, name: next(v for v in candidates if v != start[name])}
    cache = tmp_path / "tune.json"
    cache.write_text(json.dumps({
        tr.key_of(config, PREFIX): {s: {"nDCG@10": figures[label][s], "R@10": 1.0}
                                    for s in ("a", "b")}
        for label, config in (("start", start), ("moved", moved))}))
    base = {s: {"nDCG@10": 1.0, "R@10": 1.0} for s in ("a", "b")}
    tuner = tr.Tuner({"a": [], "b": []}, base, cache, PREFIX)
    tuner.cached_only = True  # nothing else is asked: only the two configurations compete
    return tuner, moved


def test_maximin_refuses_a_move_that_costs_a_training_set_more_than_the_guard(
        tmp_path: Path) -> None:
    # the move lifts the worst set (a: 1.00 -> 1.03, worst 1.00 -> 1.01) but costs b 0.010
    tuner, moved = _tuner(tmp_path, {"start": {"a": 1.00, "b": 1.02},
                                     "moved": {"a": 1.03, "b": 1.01}})
    assert tuner.choose(tr.START, ["a", "b"], procedure="mean+worst") == moved
    assert tuner.choose(tr.START, ["a", "b"], procedure="maximin") == tr.START


def test_maximin_takes_a_move_within_the_guard(tmp_path: Path) -> None:
    # b loses 0.004 (within 0.005) while the worst set rises 1.00 -> 1.016
    tuner, moved = _tuner(tmp_path, {"start": {"a": 1.00, "b": 1.020},
                                     "moved": {"a": 1.03, "b": 1.016}})
    assert tuner.choose(tr.START, ["a", "b"], procedure="maximin") == moved
