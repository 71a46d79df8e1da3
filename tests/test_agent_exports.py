"""``brv export claude-md | agents-md | cursor``: a managed block, user text kept byte for byte."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain import export
from brv_vc.services.brain.exports import BEGIN, END
from brv_vc.services.curate import run_batch
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def seed(project: Project) -> None:
    ops = [{"type": "ADD", "path": p, "title": t, "tags": [k], "content": f"{t}.",
            "summary": s, "reason": "t"} for p, t, k, s in [
        ("backend/db", "Drop Redis for sessions", "decision", "Sessions live in Postgres."),
        ("backend/api", "Snake case keys", "convention", "JSON keys are snake_case."),
        ("backend/api", "Cursor overflow", "bug", "Pagination breaks past 2^31."),
    ]]
    assert run_batch(project, ops, NOW).summary.failed == 0


def test_the_block_is_added_after_the_users_text_and_kept_byte_for_byte(project: Project,
                                                                         brv) -> None:
    seed(project)
    mine = b"# Our rules\r\n\r\nRun `make test` before pushing.\r\n"
    (project.root / "CLAUDE.md").write_bytes(mine)
    result = brv("export", "claude-md", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    data = (project.root / "CLAUDE.md").read_bytes()
    assert data.startswith(mine)
    text = data.decode()
    assert BEGIN in text
    assert text.rstrip().endswith(END)
    assert "- Drop Redis for sessions: Sessions live in Postgres." in text
    assert "### Known issues" in text
    again = brv("export", "claude-md", "--json", cwd=project.root)
    assert again.json()["changed"] is False
    assert (project.root / "CLAUDE.md").read_bytes() == data
    after = b"\r\nMore of my own words.\r\n"
    (project.root / "CLAUDE.md").write_bytes(data + after)
    run_batch(project, [{"type": "ADD", "path": "backend/db", "title": "Use pgbouncer",
                         "tags": ["decision"], "content": "Pooling.", "reason": "t"}], NOW)
    brv("export", "claude-md", cwd=project.root)
    data2 = (project.root / "CLAUDE.md").read_bytes()
    assert data2.startswith(mine)
    assert data2.endswith(after)
    assert b"Use pgbouncer" in data2


def test_check_exits_1_when_stale_and_changes_nothing(project: Project, brv) -> None:
    seed(project)
    assert brv("export", "agents-md", cwd=project.root).exit_code == 0
    assert brv("export", "agents-md", "--check", cwd=project.root).exit_code == 0
    run_batch(project, [{"type": "ADD", "path": "backend/db", "title": "New decision",
                         "tags": ["decision"], "content": "x.", "reason": "t"}], NOW)
    before = (project.root / "AGENTS.md").read_bytes()
    stale = brv("export", "agents-md", "--check", "--json", cwd=project.root)
    assert stale.exit_code == 1
    assert stale.json()["error"]["code"] == "stale"
    assert (project.root / "AGENTS.md").read_bytes() == before


def test_cursor_rule_gets_its_frontmatter(project: Project) -> None:
    seed(project)
    export(project, "cursor")
    text = (project.root / ".cursor/rules/brv.mdc").read_text()
    assert text.startswith("---\ndescription: Project knowledge kept by brv\nalwaysApply: true")


def test_broken_markers_are_refused_and_nothing_is_written(project: Project, brv) -> None:
    seed(project)
    broken = f"mine\n{BEGIN}\nhalf a block\n".encode()
    (project.root / "CLAUDE.md").write_bytes(broken)
    result = brv("export", "claude-md", cwd=project.root)
    assert result.exit_code == 1
    assert "1 brv:begin and 0 brv:end" in result.stderr
    assert (project.root / "CLAUDE.md").read_bytes() == broken


@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(count=st.integers(min_value=0, max_value=20), budget=st.integers(min_value=200,
                                                                        max_value=1500))
def test_the_block_never_exceeds_its_budget(project: Project, count: int, budget: int) -> None:
    ops = [{"type": "ADD", "path": "d/t", "title": f"Decision {count} {i}", "tags": ["decision"],
            "content": "x.", "summary": "why " * 30, "reason": "t"} for i in range(count)]
    run_batch(project, ops, NOW)
    result = export(project, "claude-md", budget=budget)
    assert result.tokens <= budget
    text = (project.root / "CLAUDE.md").read_text()
    assert count_tokens(text[text.index(BEGIN):]) <= budget
