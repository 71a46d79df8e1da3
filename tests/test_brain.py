"""``brv brain`` (seed 004): layers from the tree's signals, budgets, the ETag, bad input."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.errors import UsageError
from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain import assemble
from brv_vc.services.curate import run_batch
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def add(path: str, title: str, tags: list[str], content: str = "", summary: str = "") -> dict:
    op = {"type": "ADD", "path": path, "title": title, "tags": tags, "reason": "test",
          "content": content or f"{title}. It matters for the team."}
    if summary:
        op["summary"] = summary
    return op


def seed(project: Project) -> None:
    result = run_batch(project, [
        add("backend/db", "Postgres for everything", ["architecture"],
            summary="One Postgres 16 cluster holds sessions, jobs and data."),
        add("backend/db", "Drop Redis for sessions", ["decision"],
            summary="Sessions moved to Postgres; Redis was a second thing to run."),
        add("backend/api", "Snake case JSON keys", ["convention"]),
        add("backend/api", "Pagination cursor overflows", ["bug"]),
        add("backend/api", "Add rate limits to search", ["todo"]),
        add("frontend/ui", "Buttons use the design tokens", ["convention"]),
    ], NOW)
    assert result.summary.failed == 0


def test_the_brain_has_a_brief_and_groups_items_by_kind(project: Project) -> None:
    seed(project)
    brain = assemble(project, NOW)
    doc = brain.document
    assert doc.startswith("# Project brain\n")
    assert "## Project Brief" in doc
    assert "**Stack**: Postgres for everything" in doc
    assert "- Drop Redis for sessions: Sessions moved to Postgres" in doc
    assert "**Open issues**: 1 known issues, 1 pending tasks" in doc
    assert "### Key Decisions" in doc
    assert "### Pending Tasks" in doc
    assert brain.items_loaded == 6
    assert brain.entries == 6
    assert "0 more entries" in doc  # the footer names what is left to search
    assert brain.token_estimate == count_tokens(doc) <= 6000


def test_the_etag_holds_until_an_included_item_changes(project: Project) -> None:
    seed(project)
    first = assemble(project, NOW)
    again = assemble(project, NOW, if_none_match=first.brain_hash)
    assert again.not_modified
    assert again.document == ""
    assert again.brain_hash == first.brain_hash
    later = NOW + timedelta(minutes=5)
    result = run_batch(project, [{"type": "UPDATE", "path": "backend/api/snake_case_json_keys.md",
                                  "content": "Keys are snake_case everywhere.",
                                  "reason": "clarified"}], later)
    assert result.summary.failed == 0
    changed = assemble(project, later, if_none_match=first.brain_hash)
    assert not changed.not_modified
    assert changed.brain_hash != first.brain_hash


def test_old_low_value_items_leave_the_brain_for_search(project: Project) -> None:
    seed(project)
    far = NOW + timedelta(days=400)  # importance decays under the archive threshold
    brain = assemble(project, far)
    assert brain.items_loaded == 0
    assert "6 more entries" in brain.document


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(min_value=1, max_value=3000), min_size=1, max_size=12),
       budget=st.integers(min_value=200, max_value=7000))
def test_the_brain_never_exceeds_its_budget(project: Project, sizes: list[int],
                                            budget: int) -> None:
    kinds = ["decision", "bug", "todo", "convention", "architecture", "notes"]
    ops = [add(f"d{i % 3}/t{i % 2}", f"Item {len(sizes)} {i}", [kinds[i % len(kinds)]],
               content="word " * (n // 5 + 1), summary="s " * (n // 20))
           for i, n in enumerate(sizes)]
    run_batch(project, ops, NOW)
    brain = assemble(project, NOW, budget=budget)
    assert count_tokens(brain.document) <= budget
    l0, l1, l2 = brain.layers
    assert l0 + l1 + l2 <= budget


def test_brain_cli_json_and_not_modified(project: Project, brv, monkeypatch) -> None:
    monkeypatch.setenv("BRV_NOW", "2026-03-01T12:00:00Z")
    seed(project)
    first = brv("brain", "--json", cwd=project.root)
    assert first.exit_code == 0, first.stderr
    payload = first.json()
    assert payload["ok"]
    assert payload["itemsLoaded"] == 6
    assert len(payload["brainHash"]) == 16
    again = brv("brain", "--json", "--if-none-match", payload["brainHash"], cwd=project.root)
    assert again.json() == {"ok": True, "version": 1, "notModified": True, "brainHash": payload["brainHash"]}


def test_brain_refuses_a_budget_too_small_and_a_missing_project(project: Project, brv,
                                                                 tmp_path) -> None:
    small = brv("brain", "--budget", "10", cwd=project.root)
    assert small.exit_code == 2
    assert "at least 200" in small.stderr
    elsewhere = tmp_path / "nothing"
    elsewhere.mkdir()
    missing = brv("brain", cwd=elsewhere)
    assert missing.exit_code == 1
    assert "brv init" in missing.stderr


def test_assemble_itself_refuses_a_budget_too_small_as_the_cli_does(project: Project,
                                                                     brv) -> None:
    with pytest.raises(UsageError) as refused:
        assemble(project, NOW, budget=199)
    assert refused.value.message == "--budget 199 is too small for a brain"
    assert refused.value.hint == "give at least 200 tokens (the default is 6000)"
    cli = brv("brain", "--budget", "199", cwd=project.root)
    assert cli.exit_code == 2
    assert cli.stderr == ("brv: error: --budget 199 is too small for a brain\n"
                          "hint: give at least 200 tokens (the default is 6000)\n")
