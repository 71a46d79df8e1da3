"""``brv export`` fills its budget with the most important knowledge, from committed signals."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from brv_vc.cli.demo_cmd import DEMO_OPS
from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain.exports import digest_text
from brv_vc.services.curate import run_batch
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_claude_md_of_the_demo_tree_names_its_entries(project: Project, brv) -> None:
    assert run_batch(project, DEMO_OPS, NOW).ok
    assert brv("export", "claude-md", cwd=project.root).exit_code == 0
    text = (project.root / "CLAUDE.md").read_text()
    for op in DEMO_OPS:
        if op["type"] in ("ADD", "UPSERT"):
            assert op["title"] in text, op["title"]
    assert "Access tokens are signed with RS256" in text  # the knowledge, not only a pointer
    assert "context.md" not in text


def _thousand(project: Project) -> None:
    ops = []
    for i in range(1000):
        domain, topic = f"area{i % 10}", f"topic{i % 7}"
        ops.append({"type": "ADD", "path": f"{domain}/{topic}", "title": f"Note {i:04d}",
                    "summary": f"What the team learned about part {i}.",
                    "content": f"Part {i} is configured by hand.\n", "reason": "t"})
    # one entry everybody links to, one decision: both must lead the digest
    ops[500]["title"], ops[500]["tags"] = "Payment retries", ["decision"]
    for i in range(20):
        ops[i]["related"] = ["area0/topic3/payment_retries.md"]
    ops[777]["title"] = "Hub entry"
    for start in range(0, 1000, 250):
        when = NOW - timedelta(days=(1000 - start) // 10)
        assert run_batch(project, ops[start:start + 250], when).ok
    links = [{"type": "UPDATE", "path": f"area{i % 10}/topic{i % 7}/note_{i:04d}.md",
              "related": ["area7/topic0/hub_entry.md"], "reason": "t"} for i in range(30, 60)]
    assert run_batch(project, links, NOW).ok


def test_a_thousand_entries_fill_the_budget_best_first(project: Project) -> None:
    _thousand(project)
    for budget in (500, 1000, 3000):
        text = digest_text(project, budget)
        tokens = count_tokens(text)
        assert budget * 0.85 <= tokens <= budget, (budget, tokens)
    text = digest_text(project, 1000)
    named = re.findall(r"^- (.+?)(?::| \()", text, flags=re.M)
    assert len(named) >= 10
    assert "### Decisions\n- Payment retries" in text
    assert named.index("Hub entry") < 3  # 30 backlinks: the most important knowledge
    # committed signals only: a copy of the tree, a later clock, the same block
    assert digest_text(project, 1000) == text
