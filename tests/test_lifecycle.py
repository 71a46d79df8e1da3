"""Lifecycle math applied in ranking: decay, recency, hits, maturity both ways (injected clock)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest
from retrieval_util import write_entry

from brv_vc.lifecycle import scoring
from brv_vc.lifecycle.scoring import CORE, DRAFT, VALIDATED, Signals
from brv_vc.lifecycle.sidecar import get_many, put_many, record_hits, record_updates
from brv_vc.services.query.search import search_tree
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

T0 = datetime(2026, 1, 1, tzinfo=UTC)
DAY = 86400.0


def at_days(days: float) -> float:
    return T0.timestamp() + days * DAY


def test_daily_decay_and_recency() -> None:
    s = scoring.fresh(at_days(0))
    assert scoring.decayed_importance(s, at_days(50)) == pytest.approx(50 * 0.995**50)
    assert scoring.recency(s, at_days(30)) == pytest.approx(math.exp(-1))
    assert scoring.recency(s, at_days(21)) == pytest.approx(0.5, abs=0.01)  # ~21-day half-life


def test_hits_promote_draft_to_validated_to_core() -> None:
    s = scoring.fresh(at_days(0))
    s = scoring.on_hits(s, 4, at_days(0))  # 62: still draft (needs 65)
    assert (s.importance, s.maturity) == (62, DRAFT)
    s = scoring.on_hits(s, 1, at_days(0))  # 65
    assert s.maturity == VALIDATED
    s = scoring.on_hits(s, 6, at_days(0))  # 83
    assert s.maturity == VALIDATED
    s = scoring.on_hits(s, 1, at_days(0))  # 86
    assert s.maturity == CORE
    assert s.access_count == 12
    assert scoring.on_hits(s, 10, at_days(0)).importance == 100  # capped


def test_updates_add_5_and_reset_recency() -> None:
    s = scoring.fresh(at_days(0))
    later = scoring.on_update(s, at_days(10))
    assert later.importance == pytest.approx(50 * 0.995**10 + 5)
    assert scoring.recency(later, at_days(10)) == 1.0
    assert later.update_count == 1


def test_decay_demotes_with_hysteresis() -> None:
    core = Signals(importance=90, maturity=CORE, updated_at=at_days(0), scored_at=at_days(0))
    # 90 * 0.995^d < 60 after d > 80.9 days; between 60 and 85 it stays core (hysteresis)
    assert scoring.at(core, at_days(20)).maturity == CORE  # ~81.9 < 85 but >= 60
    assert scoring.at(core, at_days(80)).maturity == CORE
    assert scoring.at(core, at_days(82)).maturity == VALIDATED
    # validated stays validated down to 35 (demotion below 35, promotion back only at 65)
    assert scoring.at(core, at_days(180)).maturity == VALIDATED  # ~36.4
    assert scoring.at(core, at_days(190)).maturity == DRAFT  # ~34.6
    hovering = Signals(importance=62, maturity=VALIDATED)
    assert scoring.next_maturity(VALIDATED, 62) == VALIDATED
    assert scoring.next_maturity(DRAFT, 62) == DRAFT
    assert hovering.maturity == VALIDATED


def test_compound_score_boosts_by_maturity() -> None:
    now = at_days(0)
    base = dict(importance=70.0, updated_at=now, scored_at=now)
    scores = {
        m: scoring.compound_score(0.8, Signals(maturity=m, **base), now)
        for m in (DRAFT, VALIDATED, CORE)
    }
    plain = 0.6 * 0.8 + 0.2 * 0.7 + 0.2 * 1.0
    # stored maturity is re-tiered from importance 70 first: draft -> validated
    assert scores[DRAFT] == pytest.approx(plain * 1.0)
    assert scores[VALIDATED] == pytest.approx(plain * 1.0)
    assert scores[CORE] == pytest.approx(plain * 1.15)
    low = dict(importance=40.0, updated_at=now, scored_at=now)
    assert scoring.compound_score(0.8, Signals(maturity=DRAFT, **low), now) == pytest.approx(
        (0.6 * 0.8 + 0.2 * 0.4 + 0.2) * 0.85
    )


def two_twins(project: Project) -> None:
    write_entry(project, "a/b/first.md", "Deploy Checklist", "Run the deploy checklist.")
    write_entry(project, "a/b/second.md", "Deploy Checklist", "Run the deploy checklist.")


def order(project: Project, now: datetime) -> list[str]:
    return [h.path for h in search_tree(project, "deploy checklist", now=now).results]


def test_ranking_follows_importance_maturity_and_recency(project: Project) -> None:
    two_twins(project)
    state = open_state(project)
    now = T0 + timedelta(days=1)
    put_many(
        state,
        {
            "a/b/first.md": Signals(
                importance=40, maturity=DRAFT, updated_at=at_days(1), scored_at=at_days(1)
            ),
            "a/b/second.md": Signals(
                importance=90, maturity=CORE, updated_at=at_days(1), scored_at=at_days(1)
            ),
        },
    )
    assert order(project, now)[0] == "a/b/second.md"  # first may fall under the 0.7 gap
    # second decays for a year without updates: demoted and stale; first is updated daily
    later = T0 + timedelta(days=366)
    put_many(
        state,
        {
            "a/b/first.md": Signals(
                importance=80, maturity=VALIDATED, updated_at=at_days(366), scored_at=at_days(366)
            )
        },
    )
    assert order(project, later)[0] == "a/b/first.md"


def test_search_hits_promote_entries_over_time(project: Project) -> None:
    two_twins(project)
    state = open_state(project)
    for day in range(6):  # 50 -> +3 per search per returned entry
        search_tree(project, "deploy checklist", now=T0 + timedelta(days=day))
    signals = get_many(state, ["a/b/first.md"])["a/b/first.md"]
    assert signals.access_count == 6
    assert signals.maturity == VALIDATED
    assert signals.importance >= 65


def test_record_updates_and_hits_are_batched_per_command(project: Project) -> None:
    state = open_state(project)
    record_hits(state, ["x.md", "x.md", "y.md"], at_days(0))
    record_updates(state, ["x.md"], at_days(0))
    got = get_many(state, ["x.md", "y.md"])
    assert got["x.md"].access_count == 2
    assert got["x.md"].update_count == 1
    assert got["x.md"].importance == 61
    assert got["y.md"].importance == 53


def test_cli_honours_brv_now_for_decay(
    project: Project, brv, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_entry(project, "a/b/one.md", "One", "apple", updated="2026-01-01T00:00:00Z")
    monkeypatch.setenv("BRV_NOW", "2026-01-01T00:00:00Z")
    fresh = brv("show", "a/b/one.md", "--json", cwd=project.root).json()["signals"]
    monkeypatch.setenv("BRV_NOW", "2026-03-02T00:00:00Z")
    aged = brv("show", "a/b/one.md", "--json", cwd=project.root).json()["signals"]
    assert fresh["importance"] == 50
    assert fresh["recency"] == 1
    assert aged["importance"] == pytest.approx(50 * 0.995**60, abs=0.05)  # one decimal
    assert aged["recency"] == pytest.approx(math.exp(-2), abs=0.001)
