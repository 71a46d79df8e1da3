"""A refresh of known paths writes their abstracts and leaves the rest of the queue alone."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hooks_support import entry_bytes, standalone, write

from brv_vc.services.derived import refresh
from brv_vc.summary import queue
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 3, 18, 10, 0, tzinfo=UTC)


def test_the_backlog_waits_for_summarize_while_the_change_gets_its_abstract(
        tmp_path: Path) -> None:
    project = standalone(tmp_path)
    write(project.tree, "auth/jwt/changed.md", entry_bytes("Changed"))
    write(project.tree, "ops/ci/backlog.md", entry_bytes("Backlog"))
    conn = open_state(project)
    try:
        queue.enqueue(conn, ["ops/ci/backlog.md"])  # queued earlier, by another change
    finally:
        conn.close()
    report = refresh(project, ["auth/jwt/changed.md"], NOW)
    assert report.problems == ()
    assert (project.tree / "auth/jwt/changed.abstract.md").is_file()
    assert not (project.tree / "ops/ci/backlog.abstract.md").exists()
    conn = open_state(project)
    try:
        assert queue.counts(conn).get(queue.PENDING) == 1
    finally:
        conn.close()
    refresh(project, None, NOW)  # a full refresh (or 'brv summarize') works the backlog
    assert (project.tree / "ops/ci/backlog.abstract.md").is_file()
