"""What a batch does when one operation fails (docs/curate.md "Batches and failures")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import snapshot

from brv_vc.errors import FormatError
from brv_vc.services.curate import load_ops, run_batch
from brv_vc.tree.layout import is_derived
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def add(title: str, path: str = "auth/jwt", **extra) -> dict:
    return {
        "type": "ADD",
        "path": path,
        "title": title,
        "content": f"About {title}.",
        "reason": "r",
        **extra,
    }


def test_operations_apply_in_order_and_a_failure_does_not_stop_the_others(project: Project) -> None:
    ops = [
        add("One"),
        {
            "type": "MERGE",
            "path": "auth/jwt/missing.md",
            "target": "auth/jwt/one.md",
            "reason": "dup",
        },
        {"type": "UPDATE", "path": "auth/jwt/one.md", "content": "Changed.", "reason": "sees op 0"},
        add("Two"),
    ]
    result = run_batch(project, ops, NOW)
    assert not result.ok
    assert [r.status for r in result.applied] == ["success", "failed", "success", "success"]
    assert result.applied[1].message == "MERGE source entry 'auth/jwt/missing.md' not found"
    assert result.applied[1].reason == "dup"
    assert (result.summary.added, result.summary.updated, result.summary.failed) == (2, 1, 1)
    assert "Changed." in (project.tree / "auth/jwt/one.md").read_text()
    assert (project.tree / "auth/jwt/two.md").exists()


def test_atomic_batch_applies_nothing_when_one_operation_would_fail(project: Project) -> None:
    run_batch(project, [add("Existing")], NOW)
    before = snapshot(project.root)
    ops = [
        add("New"),
        add("Existing"),
        {"type": "DELETE", "path": "auth/jwt/existing.md", "reason": "r"},
    ]
    result = run_batch(project, ops, NOW, atomic=True)
    assert not result.ok
    assert [r.status for r in result.applied] == ["skipped", "failed", "skipped"]
    assert result.applied[0].message == "not applied: the batch is atomic and operation 1 failed"
    assert result.applied[1].message == (
        "'auth/jwt/existing.md' already exists with the title 'Existing'; use UPDATE or UPSERT, "
        "or give a different title"
    )
    assert result.summary.added == result.summary.deleted == 0
    assert result.summary.failed == 1
    assert snapshot(project.root) == before


def test_atomic_batch_plans_each_operation_on_the_tree_its_predecessors_leave(
    project: Project,
) -> None:
    ops = [
        add("One", path="billing/plans"),
        add("Two", path="billing/plans"),
        {"type": "UPDATE", "path": "billing/plans/one.md", "content": "Updated.", "reason": "r"},
        {
            "type": "MERGE",
            "path": "billing/plans/two.md",
            "target": "billing/plans/one.md",
            "reason": "r",
        },
        add("Two", path="billing/plans"),  # exists again only because MERGE deleted it
        {"type": "DELETE", "path": "billing/plans/two.md", "reason": "r"},
    ]
    result = run_batch(project, ops, NOW, atomic=True)
    assert result.ok, result.applied
    text = (project.tree / "billing/plans/one.md").read_text()
    assert "Updated." in text
    assert "About Two." in text
    assert not (project.tree / "billing/plans/two.md").exists()
    assert "\n---\n\n# Topic: plans\n" in (project.tree / "billing/plans/context.md").read_text()
    assert (
        result.summary.added,
        result.summary.updated,
        result.summary.merged,
        result.summary.deleted,
    ) == (3, 1, 1, 1)


def test_atomic_add_into_a_folder_deleted_earlier_in_the_batch(project: Project) -> None:
    run_batch(project, [add("Old", path="legacy/api")], NOW)
    ops = [{"type": "DELETE", "path": "legacy", "reason": "r"}, add("New", path="legacy/api")]
    result = run_batch(project, ops, NOW, atomic=True)
    assert result.ok
    knowledge = [p for p in (project.tree / "legacy/api").iterdir() if not is_derived(f"legacy/api/{p.name}")]
    assert sorted(p.name for p in knowledge) == [
        "context.md",
        "new.md",
    ]
    assert (project.tree / "legacy/context.md").exists()


def test_an_invalid_batch_is_refused_whole(project: Project) -> None:
    text = (
        '[{"type": "ADD", "path": "a/b", "title": "Fine", "content": "c", "reason": "r"},'
        ' {"type": "ADD", "path": "a/b", "content": "c", "reason": "r"}]'
    )
    with pytest.raises(FormatError) as caught:
        load_ops(text, file="ops.json")
    assert caught.value.message == (
        "invalid operation at operations[1]: 'title' is required but missing; nothing was applied"
    )
    assert caught.value.key == "operations[1]"
    assert caught.value.file == "ops.json"


def test_operations_wrapper_object_is_accepted() -> None:
    ops = load_ops('{"operations": [{"type": "DELETE", "path": "a", "reason": "r"}]}')
    assert ops == [{"type": "DELETE", "path": "a", "reason": "r"}]


def test_a_large_batch_is_staged_synced_once_and_leaves_no_staging(project: Project) -> None:
    ops = [add(f"Entry {i}", path=f"d{i % 3}/t{i % 2}") for i in range(40)]
    result = run_batch(project, ops, NOW)
    assert result.ok
    assert result.summary.added == 40
    assert (
        (project.tree / "d1/t0/entry_4.md").read_text().endswith("## Narrative\nAbout Entry 4.\n")
    )
    assert not list(project.state.glob(".curate-staging-*"))
    assert not list(project.tree.rglob("*.tmp"))
