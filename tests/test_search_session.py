"""The resident search session of brv mcp: open connections, edits still seen, hits batched."""

from __future__ import annotations

from datetime import UTC, datetime

from brv_vc.lifecycle.sidecar import get_many
from brv_vc.services.curate import run_batch
from brv_vc.services.query import SearchSession
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def add(title: str, content: str) -> dict:
    return {"type": "ADD", "path": "auth/jwt", "title": title, "content": content, "reason": "t"}


def hits(project: Project, path: str) -> int:
    conn = open_state(project)
    try:
        found = get_many(conn, [path]).get(path)
        return found.access_count if found else 0
    finally:
        conn.close()


def test_the_session_answers_as_search_tree_and_sees_edits_between_calls(
        project: Project) -> None:
    run_batch(project, [add("Token rotation", "Refresh tokens are single-use."),
                        add("Key storage", "Keys live in the vault.")], NOW)
    ticks = iter(range(0, 1000, 10))  # a clock that never lets a second pass between flushes
    session = SearchSession(project, clock=lambda: next(ticks) / 1000)
    try:
        first = session.search("single use refresh", now=NOW, record=False)
        assert first.results[0].path == "auth/jwt/token_rotation.md"
        entry = project.tree / "auth/jwt/key_storage.md"
        with entry.open("a", encoding="utf-8") as handle:  # in place: the folder does not change
            handle.write("\nRotated by the wombat job.\n")
        assert session.search("wombat", now=NOW).results[0].path == "auth/jwt/key_storage.md"
        run_batch(project, [add("Wombat runbook", "The wombat job rotates keys.")], NOW)
        paths = {r.path for r in session.search("wombat", now=NOW).results}
        assert "auth/jwt/wombat_runbook.md" in paths
        assert hits(project, "auth/jwt/key_storage.md") == 0  # batched, not yet written
    finally:
        session.close()
    assert hits(project, "auth/jwt/key_storage.md") == 2  # written when the session closes


def test_hits_are_flushed_once_a_second(project: Project) -> None:
    run_batch(project, [add("Token rotation", "Refresh tokens are single-use.")], NOW)
    now = [0.0]
    session = SearchSession(project, clock=lambda: now[0])
    try:
        session.search("refresh tokens", now=NOW)
        assert hits(project, "auth/jwt/token_rotation.md") == 0
        now[0] = 1.5
        session.search("refresh tokens", now=NOW)
        assert hits(project, "auth/jwt/token_rotation.md") == 2
    finally:
        session.close()


def test_a_large_tree_session_never_waits_yet_sees_every_edit(
        project: Project, monkeypatch) -> None:
    import time

    from brv_vc.index import sync as syncmod

    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)  # the large-tree path at any size
    run_batch(project, [add("Token rotation", "Refresh tokens are single-use."),
                        add("Key storage", "Keys live in the vault.")], NOW)
    session = SearchSession(project)
    try:
        assert session.search("vault", now=NOW, record=False).results
        run_batch(project, [add("Numbat runbook", "The numbat job rotates keys.")], NOW)
        # a new file changes its folder: seen by the very next call, scan or no scan
        assert session.search("numbat", now=NOW, record=False).results[0].path == (
            "auth/jwt/numbat_runbook.md")
        entry = project.tree / "auth/jwt/key_storage.md"
        with entry.open("a", encoding="utf-8") as handle:  # in place: only the scan sees it
            handle.write("\nAudited by the quoll team.\n")
        deadline = time.monotonic() + 10
        while not session.search("quoll", now=NOW, record=False).results:
            assert time.monotonic() < deadline, "an in-place edit was never seen"
            time.sleep(0.05)
    finally:
        session.close()
