"""Agent mode: brv dream scan hands candidates out, brv dream apply runs decisions back in."""

from __future__ import annotations

import json

import pytest
from dream_support import add, age, duplicate_pair, tree_bytes


def test_scan_then_apply_round_trip(project, brv):
    a, b = duplicate_pair(project)
    stale = add(project, "notes/old", "Fax machines", "Fax machines need paper.")
    age(project, stale, 61)
    before = tree_bytes(project.root)
    scan = brv("dream", "scan", "--json", cwd=project.root).json()
    assert tree_bytes(project.root) == before  # scanning changes nothing
    by_action = {c["suggested"]["action"]: c for c in scan["candidates"]}
    merge = by_action["MERGE"]
    assert merge["allowed"] == ["MERGE", "TEMPORAL_UPDATE", "CROSS_REFERENCE", "SKIP"]
    assert set(merge["content"]) == {a, b}
    assert "OAuth tokens refresh" in merge["content"][a]
    # the agent keeps the archive but turns the merge into a cross-reference
    decisions = [
        {"operation": "consolidate", "action": "CROSS_REFERENCE", "files": [a, b],
         "reason": "distinct enough to keep both"},
        {**by_action["ARCHIVE"]["suggested"], "action": "KEEP", "reason": "still useful"},
    ]
    out = brv("dream", "apply", "-", "--force", "--json", cwd=project.root,
              input=json.dumps(decisions)).json()
    assert out["status"] == "completed"
    assert [op["action"] for op in out["operations"]] == ["CROSS_REFERENCE", "KEEP"]
    assert (project.tree / b).exists()
    assert (project.tree / stale).exists()
    log = brv("dream", "--log", out["id"], "--json", cwd=project.root).json()["logs"][0]
    assert log["trigger"] == "agent"
    assert brv("dream", "--undo", cwd=project.root).exit_code == 0
    assert tree_bytes(project.root) == before


def test_apply_goes_through_the_gates(project, brv):
    a, _b = duplicate_pair(project)
    decision = [{"operation": "consolidate", "action": "SKIP", "files": [a], "reason": "r"}]
    out = brv("dream", "apply", "-", cwd=project.root, input=json.dumps(decision))
    assert out.exit_code == 0
    assert out.stdout.startswith("Dream skipped: Not enough activity")


@pytest.mark.parametrize(("decisions", "message"), [
    ("not json", "the decisions are not valid JSON"),
    ('{"x": 1}', "the decisions must be a JSON array of operations"),
    ('[{"operation": "prune", "action": "MERGE", "file": "a/b/c.md", "reason": "r"}]',
     "invalid decision at operations[0].action: prune allows ARCHIVE, KEEP, MERGE_INTO"),
    ('[{"operation": "prune", "action": "KEEP", "file": "a/b/c.md"}]',
     "invalid decision at operations[0].reason: a non-empty reason is required"),
    ('[{"operation": "prune", "action": "KEEP", "file": "../x.md", "reason": "r"}]',
     "invalid decision at operations[0].file"),
    ('[{"operation": "consolidate", "action": "MERGE", "target": "a/b/c.md", "sources": [],'
     ' "reason": "r"}]',
     "invalid decision at operations[0].sources: a non-empty list of strings is required"),
    ('[{"operation": "synthesize", "action": "CREATE", "title": "T", "content": "c",'
     ' "sources": ["a/_index.md"], "confidence": 3, "reason": "r"}]',
     "invalid decision at operations[0].confidence: must be a number from 0 to 1"),
])
def test_malformed_decisions_change_nothing(project, brv, decisions, message):
    duplicate_pair(project)
    before = tree_bytes(project.root)
    out = brv("dream", "apply", "-", "--force", cwd=project.root, input=decisions)
    assert out.exit_code == 1
    assert message in out.stderr
    assert tree_bytes(project.root) == before
    assert not (project.state / "dream-log").exists()


def test_apply_reads_a_file_and_refuses_a_missing_one(project, brv, tmp_path):
    missing = brv("dream", "apply", str(tmp_path / "nope.json"), "--force", cwd=project.root)
    assert missing.exit_code == 1  # bad input, as curate --ops: exit 1
    assert "decisions file" in missing.stderr
    assert "does not exist" in missing.stderr
