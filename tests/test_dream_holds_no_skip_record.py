"""A dream holds no SKIP record: it counts them, and its log keeps each with its reason.

Issue 37: a whole first pass at 100,000 entries decides ~100,000 SKIPs ("no entry ... needs
a change"); held to the end for the log and the --json answer they took the dream over its
300 MB budget. The journal already has each one: the final log streams them from it, and
the result and the answer count them (``skipped``) beside the operations that did something.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from hooks_support import entry_bytes, in_project, write

from brv_vc.services import dream
from brv_vc.services.dream import dreamlog
from brv_vc.services.dream.consolidate import NOTHING_ALIKE
from brv_vc.services.dream.decisions import load_decisions

SUBJECTS = ("Kafka consumer lag alerts", "Postgres vacuum schedule", "Terraform state locking",
            "Nginx rate limiting", "Redis eviction policy")
NOW = datetime(2026, 3, 1, tzinfo=UTC)


def _tree(tmp_path: Path):
    project = in_project(tmp_path)
    for n, title in enumerate(SUBJECTS):
        write(project.tree, f"ops/topic{n}/note{n}.md",
              entry_bytes(title, f"## Narrative\n\n{title} note {n}: words of its own {n}.\n"))
    return project


def test_the_result_counts_the_skips_and_the_log_keeps_each(tmp_path: Path) -> None:
    project = _tree(tmp_path)
    result = dream.dream(project, NOW, force=True)
    assert result.status == "completed"
    assert not [op for op in result.operations if op["action"] == "SKIP"]
    logged = dreamlog.read(project, str(result.id))["operations"]
    skips = [op for op in logged if op["action"] == "SKIP"]
    assert len(skips) == result.skipped >= len(SUBJECTS)  # and the entry in_project writes
    assert all(op["reason"] == NOTHING_ALIKE and op["status"] == "skipped" for op in skips)
    assert [op for op in logged if op["action"] != "SKIP"] == list(result.operations)
    assert not (dreamlog.folder(project) / f"{result.id}.ops.jsonl").exists()  # folded in


def test_the_json_answer_counts_the_skips(tmp_path: Path, brv) -> None:
    project = _tree(tmp_path)
    answer = brv("dream", "--force", "--json", cwd=project.root).json()
    assert answer["skipped"] >= len(SUBJECTS)
    assert all(op["action"] != "SKIP" for op in answer["operations"])
    shown = brv("dream", "--log", answer["id"], "--json", cwd=project.root).json()["logs"][0]
    assert shown["skipped"] == answer["skipped"]  # the log read as the answer: SKIPs counted
    assert all(op["action"] != "SKIP" for op in shown["operations"])
    text = brv("dream", "--log", answer["id"], cwd=project.root).stdout
    assert f"{answer['skipped']} SKIP decisions" in text
    whole = dreamlog.read(project, answer["id"])["operations"]  # the file keeps every one
    assert sum(op["action"] == "SKIP" for op in whole) == answer["skipped"]
    listed = brv("dream", "--log", "--json", cwd=project.root).json()["logs"][0]
    assert listed["operationCount"] == len(whole)


def test_an_agents_answer_has_one_result_per_decision(tmp_path: Path) -> None:
    project = _tree(tmp_path)
    entries = sorted(str(p.relative_to(project.tree)) for p in project.tree.glob("ops/*/*.md"))
    decisions = load_decisions(json.dumps([
        {"operation": "consolidate", "action": "SKIP", "files": [entries[0]], "reason": "mine"},
        {"operation": "consolidate", "action": "CROSS_REFERENCE", "files": entries[1:3],
         "reason": "related", "confidence": 0.9},
        {"operation": "consolidate", "action": "SKIP", "files": [entries[3]], "reason": "also"}]))
    result = dream.dream(project, NOW, force=True, decisions=decisions)
    assert [op["action"] for op in result.operations] == ["SKIP", "CROSS_REFERENCE", "SKIP"]
    assert result.skipped == 2


def test_a_killed_dreams_status_is_read_from_a_big_logs_head(tmp_path: Path) -> None:
    project = _tree(tmp_path)
    # each operation's own status is another than its log's: the log's own is read
    for n, (status, ops) in enumerate((("completed", "processing"), ("processing", "skipped"))):
        log = {"id": f"drm-{n}", "trigger": "cli", "status": status, "journal": True}
        dreamlog.write(project, log)
        skip = {"operation": "consolidate", "action": "SKIP", "files": ["a/b/c.md"],
                "reason": NOTHING_ALIKE, "status": ops, "changes": []}
        dreamlog.append(project, f"drm-{n}", *[skip] * 6000, durable=False)
        dreamlog.close(project, log)
        assert (dreamlog.folder(project) / f"drm-{n}.json").stat().st_size > 1 << 20
        assert dreamlog.status(project, f"drm-{n}") == status
    dream.dream(project, NOW, force=True)  # marks the killed one, leaves the finished one
    assert dreamlog.status(project, "drm-0") == "completed"
    assert dreamlog.status(project, "drm-1") == "error"  # killed before it changed anything


def test_a_big_logs_status_comes_from_its_own_key_and_its_head_alone(tmp_path: Path) -> None:
    project = _tree(tmp_path)
    skip = {"operation": "consolidate", "action": "SKIP", "files": ["a/b/c.md"],
            "reason": NOTHING_ALIKE, "status": "skipped", "changes": []}
    folder = dreamlog.folder(project)
    folder.mkdir(parents=True, exist_ok=True)
    # cut after its head (a disk filled mid-write): no parse could read it, the head tells
    dreamlog.write(project, {"id": "drm-1", "status": "completed", "journal": True})
    dreamlog.append(project, "drm-1", *[skip] * 6000, durable=False)
    dreamlog.close(project, {"id": "drm-1", "status": "completed"})
    whole = (folder / "drm-1.json").read_bytes()
    (folder / "drm-1.json").write_bytes(whole[: len(whole) - 100])
    assert dreamlog.status(project, "drm-1") == "completed"
    # older code's key order, the operations first: their "status" is not the log's
    older = {"id": "drm-2", "operations": [skip] * 6000, "status": "undone"}
    (folder / "drm-2.json").write_text(json.dumps(older, indent=2))
    assert (folder / "drm-2.json").stat().st_size > 1 << 20
    assert dreamlog.status(project, "drm-2") == "undone"


def test_a_dream_cut_short_is_partial_only_when_it_left_work_behind() -> None:
    # one rule for a dream its budget stopped (cursor saved) and one killed (nothing saved)
    skip, applied = {"action": "SKIP", "status": "skipped"}, {"action": "MERGE", "status": "applied"}
    failed = {"action": "MERGE", "status": "failed"}
    assert dreamlog.cut_short([], saved=True, skipped=3) == "partial"
    assert dreamlog.cut_short([skip], saved=True) == "partial"
    assert dreamlog.cut_short([failed], saved=True) == "error"
    assert dreamlog.cut_short([skip, skip], saved=False) == "error"  # its SKIPs died with it
    assert dreamlog.cut_short(iter([skip, applied]), saved=False) == "partial"
    assert dreamlog.cut_short([], saved=False, skipped=2) == "error"
