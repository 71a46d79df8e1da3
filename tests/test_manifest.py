"""``_manifest.json``: three lanes, budgets, abstracts preferred, staleness, hand edits."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from summary_support import small_tree, write_entry

from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import sidecar
from brv_vc.lifecycle.scoring import Signals
from brv_vc.services.derived.manifest import show_manifest
from brv_vc.services.derived.summaries import summarize
from brv_vc.summary.archive import archive_entry
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 2, 1, tzinfo=UTC)


def test_lanes_orders_and_budgets(project: Project) -> None:
    small_tree(project)
    summarize(project, NOW)
    (project.tree / "db/models/user_model.abstract.md").unlink()  # falls back to the file
    conn = open_state(project)
    sidecar.put_many(conn, {"auth/oauth/code_flow.md": Signals(importance=90.0, maturity="core",
                                                                updated_at=NOW.timestamp(),
                                                                scored_at=NOW.timestamp())})
    conn.close()
    archive_entry(project, "auth/jwt/token_rotation.md", datetime(2026, 2, 2, tzinfo=UTC))
    archive_entry(project, "auth/jwt/token_generation.md", datetime(2026, 2, 3, tzinfo=UTC))
    m = show_manifest(project, NOW, rebuild=True).manifest
    assert m["budgets"] == {"summaries": 2000, "contexts": 4000, "stubs": 500}
    orders = [row["condensation_order"] for row in m["summaries"]]
    assert orders == sorted(orders, reverse=True)
    assert orders[0] == 3
    assert m["summaries"][0]["path"] == "_index.md"
    contexts = m["contexts"]
    assert contexts[0] == {
        "path": "auth/oauth/code_flow.md", "read": "auth/oauth/code_flow.abstract.md",
        "importance": 90.0,
        "tokens": count_tokens((project.tree / "auth/oauth/code_flow.abstract.md").read_text()),
    }
    assert {row["path"]: row["read"] for row in contexts}["db/models/user_model.md"] == \
        "db/models/user_model.md"
    assert [row["importance"] for row in contexts[1:]] == [50.0] * (len(contexts) - 1)
    assert [row["path"] for row in m["stubs"]] == [
        "_archived/auth/jwt/token_rotation.stub.md",
        "_archived/auth/jwt/token_generation.stub.md",
    ]
    for lane in ("summaries", "contexts", "stubs"):
        assert m["totals"][lane] == sum(row["tokens"] for row in m[lane]) <= m["budgets"][lane]


def test_budget_leaves_out_what_does_not_fit(project: Project) -> None:
    for i in range(80):
        write_entry(project, f"d/t/entry_{i:02d}.md", f"Entry {i:02d}", summary="word " * 60)
    summarize(project, NOW)
    m = show_manifest(project, NOW).manifest
    assert m["totals"]["contexts"] <= 4000
    assert m["omitted"]["contexts"] > 0
    assert len(m["contexts"]) + m["omitted"]["contexts"] == 80


def test_rebuilt_only_when_stale(project: Project, brv) -> None:
    small_tree(project)
    first = brv("manifest", "--json", cwd=project.root)
    assert first.exit_code == 0, first.stderr
    assert first.json()["rebuilt"] is True
    assert brv("manifest", "--json", cwd=project.root).json()["rebuilt"] is False
    write_entry(project, "db/models/order_model.md", "Order Model")
    third = brv("manifest", "--json", cwd=project.root).json()
    assert third["rebuilt"] is True
    assert "db/models/order_model.md" in [row["path"] for row in third["contexts"]]
    text = brv("manifest", cwd=project.root)
    assert "contexts: 6 files" in text.stdout


def test_hand_edited_manifest_is_rebuilt_with_a_warning(project: Project, brv) -> None:
    small_tree(project)
    summarize(project, NOW)
    target = project.tree / "_manifest.json"
    original = target.read_bytes()
    data = json.loads(original)
    data["contexts"] = []
    target.write_text(json.dumps(data))
    result = brv("manifest", "--json", cwd=project.root)
    assert result.exit_code == 0
    assert "_manifest.json was edited by hand; rebuilt" in result.stderr
    assert result.json()["rebuilt"] is True
    assert target.read_bytes() == original
    target.write_text("{not json")
    again = brv("manifest", cwd=project.root)
    assert again.exit_code == 0
    assert "edited by hand" in again.stderr
    assert target.read_bytes() == original
