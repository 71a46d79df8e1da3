"""The semantic lane's fusion: reciprocal ranks of both lanes, a strong lexical match kept
in place, and settings that name no usable model turn the lane off with a note."""

from __future__ import annotations

import pytest

from brv_vc.services.semantic.fusion import fuse, strong
from brv_vc.tree.project import Project


def test_both_lanes_agreeing_come_first_and_each_lane_adds_its_own() -> None:
    order = fuse(["a", "b", "c"], ["c", "x", "a"], weight=1.0)
    assert order[0] == "a"
    assert set(order) == {"a", "b", "c", "x"}
    assert order.index("c") < order.index("b")  # both lanes hold c: above b (lexical only)


def test_weight_zero_keeps_the_lexical_order() -> None:
    assert fuse(["a", "b", "c"], ["c", "b", "z"], weight=0.0)[:3] == ["a", "b", "c"]


def test_a_strong_lexical_match_keeps_its_place_against_the_semantic_lane() -> None:
    lexical, semantic = ["exact", "b"], ["x", "y", "b"]
    assert fuse(lexical, semantic, weight=1.5)[0] != "exact"
    assert fuse(lexical, semantic, weight=1.5, guarded=True)[0] == "exact"
    assert strong(1.0, 0.9, 0.6)
    assert not strong(0.8, 0.9, 0.6)
    assert not strong(1.0, 0.2, 0.6)
    assert not strong(1.0, 1.0)  # shipped off: the bench found no set it helped at WEIGHT


def test_a_model_without_an_endpoint_that_is_not_offline_turns_the_lane_off_with_a_note(
        project: Project, brv, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BRV_EMBED_MODEL", "text-embedding-3-small")
    assert brv("curate", "add", "a/b", "--title", "Token rotation", "--content", "Rotate keys.",
               cwd=project.root).exit_code == 0
    done = brv("search", "token rotation", "--json", cwd=project.root)
    assert done.exit_code == 0
    assert done.json()["lanes"] == ["lexical"]
    assert "semantic lane off" in done.stderr
    assert "embeddings.base_url" in done.stderr


def test_index_embed_without_a_model_says_how_to_set_one(project: Project, brv,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BRV_EMBED_BASE_URL", "BRV_EMBED_MODEL", "BRV_EMBED_API_KEY_ENV"):
        monkeypatch.delenv(name, raising=False)
    done = brv("index", "--embed", cwd=project.root)
    assert done.exit_code == 1
    assert "no embedding model is configured" in done.stderr
    assert "BRV_EMBED_MODEL" in done.stderr
    assert not (project.state / "vectors.db").exists()
