"""The persistent incremental index: what is indexed, change detection, repair, problems."""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime

import pytest
from retrieval_util import write_entry

from brv_vc.index.db import open_index
from brv_vc.index.sync import sync
from brv_vc.lifecycle.sidecar import get_many, record_hits
from brv_vc.services.derived.index import index_project, open_synced
from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.query.search import search_tree
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path, open_state

NOW = datetime(2026, 1, 20, tzinfo=UTC)

STUB = """---
type: archive_stub
original_path: auth/legacy/saml_login.md
evicted_at: "2025-12-01T00:00:00Z"
evicted_importance: 20
points_to: _archived/auth/legacy/saml_login.full.md
---
SAML single sign-on through Okta was replaced by OIDC.
"""


def indexed(project: Project) -> set[str]:
    opened = open_synced(project)
    try:
        return {r[0] for r in opened.conn.execute(
            "SELECT path FROM docs WHERE id IN (SELECT id FROM texts)")}
    finally:
        opened.close()


def test_what_is_indexed(project: Project) -> None:
    write_entry(project, "auth/jwt/rotation.md", "Token Rotation", "Refresh tokens rotate.")
    tree = project.tree
    (tree / "auth/jwt/context.md").write_text("# JWT\nTokens for the public API.\n")
    (tree / "auth/jwt/_index.md").write_text("---\ntitle: x\n---\nsummary of rotation\n")
    (tree / "auth/jwt/rotation.abstract.md").write_text("rotation abstract\n")
    (tree / "auth/jwt/rotation.overview.md").write_text("rotation overview\n")
    (tree / "_manifest.json").write_text("{}")
    (tree / "_archived/auth/legacy").mkdir(parents=True)
    (tree / "_archived/auth/legacy/saml_login.stub.md").write_text(STUB)
    (tree / "_archived/auth/legacy/saml_login.full.md").write_text("---\ntitle: SAML\n---\nx\n")
    assert indexed(project) == {
        "auth/jwt/rotation.md",
        "auth/jwt/context.md",
        "_archived/auth/legacy/saml_login.stub.md",
    }
    hit = search_tree(project, "saml okta", now=NOW).results[0]
    assert hit.path == "_archived/auth/legacy/saml_login.stub.md"
    assert hit.title == "saml login"
    assert hit.kind == "archive_stub"


def test_only_changed_files_are_reread(project: Project) -> None:
    for i in range(5):
        write_entry(project, f"a/b/e{i}.md", f"Entry {i}", f"body {i}")
    handle = open_index(project)
    first = sync(project, handle.conn)
    assert len(first.added) == 5
    write_entry(project, "a/b/e1.md", "Entry 1", "changed body")
    path = project.tree / "a/b/e2.md"
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))  # touch only
    second = sync(project, handle.conn)
    assert second.updated == ("a/b/e1.md",)
    assert second.added == ()
    assert second.removed == ()
    assert sync(project, handle.conn).changed is False


def test_hand_edits_adds_deletes_and_renames_are_noticed(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    write_entry(project, "a/b/two.md", "Two", "banana")
    assert search_tree(project, "apple", now=NOW).results
    path = project.tree / "a/b/one.md"
    path.write_text(path.read_text().replace("apple", "cherry"))  # in place, by hand
    assert not search_tree(project, "apple", now=NOW).results
    assert search_tree(project, "cherry", now=NOW).results[0].path == "a/b/one.md"
    (project.tree / "a/b/two.md").rename(project.tree / "a/b/three.md")
    assert [h.path for h in search_tree(project, "banana", now=NOW).results] == ["a/b/three.md"]
    (project.tree / "a/b/three.md").unlink()
    assert not search_tree(project, "banana", now=NOW).results


def test_fast_check_uses_folder_mtimes(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    handle = open_index(project)
    sync(project, handle.conn, mode="full")
    assert sync(project, handle.conn, mode="fast").changed is False
    write_entry(project, "a/b/one.md", "One", "pear")  # atomic write: folder mtime moves
    write_entry(project, "a/c/new.md", "New", "plum")  # new folder
    report = sync(project, handle.conn, mode="fast")
    assert report.updated == ("a/b/one.md",)
    assert report.added == ("a/c/new.md",)
    import shutil

    shutil.rmtree(project.tree / "a/c")
    assert sync(project, handle.conn, mode="fast").removed == ("a/c/new.md",)


def test_refresh_syncs_named_paths_and_fails_open(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    report = refresh(project, None, NOW)
    assert "index" in report.steps
    assert report.problems == ()
    write_entry(project, "a/b/one.md", "One", "quince")
    report = refresh(project, ["a/b/one.md"], NOW)
    assert "index" in report.steps
    assert search_tree(project, "quince", now=NOW).results
    index_db_path(project).write_bytes(b"garbage" * 100)
    assert "index" in refresh(project, ["a/b/one.md"], NOW).steps


def test_a_file_that_fails_to_parse_is_skipped(project: Project, brv) -> None:
    write_entry(project, "a/b/good.md", "Good", "apple")
    (project.tree / "a/b/bad.md").write_text("---\ntitle: [unclosed\n---\napple\n")
    assert [h.path for h in search_tree(project, "apple", now=NOW).results] == ["a/b/good.md"]
    result = brv("index", "--json", cwd=project.root)
    assert result.exit_code == 0
    data = result.json()
    assert data["files"] == 1
    assert data["ok"] is True
    assert data["problems"][0]["path"] == "a/b/bad.md"
    rebuilt = brv("index", "--rebuild", "--json", cwd=project.root).json()
    assert rebuilt["counts"] == {"added": 1, "updated": 0, "removed": 0}
    assert "added" not in rebuilt  # paths only with --verbose; problems always
    assert rebuilt["problems"][0]["path"] == "a/b/bad.md"
    verbose = brv("index", "--rebuild", "--verbose", "--json", cwd=project.root).json()
    assert verbose["added"] == ["a/b/good.md"]  # the broken file is listed under problems only
    assert "malformed YAML" in data["problems"][0]["message"]
    assert "1 file(s) could not be parsed and are not searchable" in result.stderr
    text = brv("index", "--rebuild", cwd=project.root)
    assert text.stdout.splitlines()[0] == "Indexed 1 file (1 added, 0 updated, 0 removed)."
    assert "a/b/bad.md" in text.stdout
    assert "brv: warning: 1 file(s) could not be parsed" in text.stderr


@pytest.mark.parametrize("damage", ["corrupt", "delete", "truncate"])
def test_broken_or_missing_index_is_rebuilt_with_a_message(
    project: Project, brv, damage: str
) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    assert brv("search", "apple", cwd=project.root).exit_code == 0
    db = index_db_path(project)
    for suffix in ("-wal", "-shm"):
        db.with_name(db.name + suffix).unlink(missing_ok=True)
    if damage == "corrupt":
        db.write_bytes(b"this is not a database" * 200)
    elif damage == "truncate":
        db.write_bytes(db.read_bytes()[:1000])
    else:
        db.unlink()
    result = brv("search", "apple", cwd=project.root)
    assert result.exit_code == 0
    assert "a/b/one.md" in result.stdout
    if damage == "delete":  # derived and deletable at any time: rebuilt without a word
        assert result.stderr == ""
    else:
        assert "brv: warning: the search index index.db was unreadable" in result.stderr


def test_rebuild_never_touches_the_sidecar(project: Project, brv) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    state = open_state(project)
    record_hits(state, ["a/b/one.md"], NOW.timestamp())
    before = get_many(state, ["a/b/one.md"])
    assert brv("index", "--rebuild", cwd=project.root).exit_code == 0
    assert get_many(state, ["a/b/one.md"]) == before
    conn = sqlite3.connect(index_db_path(project))
    assert "signals" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}


def test_index_result_counts(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    first = index_project(project, rebuild=False, now=NOW)
    assert first.files == 1
    assert first.added == ("a/b/one.md",)
    again = index_project(project, rebuild=True, now=NOW)
    assert again.files == 1


def test_two_processes_syncing_at_once_do_not_collide(project: Project) -> None:
    """The second sync saw the change before the first wrote it: it re-reads under the lock."""
    from brv_vc.index import sync as syncmod

    write_entry(project, "a/b/one.md", "One", "apple")
    first, second = open_index(project), open_index(project)
    sync(project, first.conn, mode="full")
    write_entry(project, "a/b/two.md", "Two", "pear")
    dirs: dict[str, int] = {}
    listing: dict[str, tuple[int, int]] = {}
    syncmod._walk(project.tree, "", dirs, listing)
    stale = syncmod._stats(second.conn, "", [])  # read before the first process writes
    assert sync(project, first.conn, mode="full").added == ("a/b/two.md",)
    late = syncmod._reconcile(second.conn, project.tree, "full", listing, stale, dirs, [], 0.0)
    assert late.changed is False
    assert second.conn.execute("SELECT count(*) FROM docs").fetchone()[0] == 2


@pytest.mark.parametrize(
    "path",
    ["a.md", "a/b.md", "a/b/c.md", "a/b/c/d.md", "a/b/c/d/e.md", "a/context.md", "context.md",
     "a/b/_index.md", "a/b/x.abstract.md", "a/b/x.overview.md", "a/b/x.txt", "_manifest.json",
     "_archived/a/b/x.stub.md", "_archived/a/b/x.full.md", "_archived/x.md", "a/b/c/context.md"],
)
def test_walk_classifier_matches_layout(path: str) -> None:
    from brv_vc.index.docs import is_indexed
    from brv_vc.index.sync import _indexable

    folder, _, name = path.rpartition("/")
    depth = folder.count("/") + 1 if folder else 0
    archived = folder.split("/")[0] == "_archived"
    assert _indexable(name, depth, archived) == is_indexed(path)


def test_damage_found_midway_is_rebuilt_not_a_crash(project: Project, brv) -> None:
    for i in range(40):
        write_entry(project, f"a/b/e{i}.md", f"Entry {i}", "apple " * 200 + f"word{i}")
    assert brv("search", "apple", cwd=project.root).exit_code == 0
    db = index_db_path(project)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(db.read_bytes())
    page = 4096
    for start in range(2 * page, len(data) - page, 3 * page):  # keep the header page intact
        data[start + 100 : start + page] = b"\xff" * (page - 100)
    db.write_bytes(bytes(data))
    result = brv("search", "word7", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert "a/b/e7.md" in result.stdout
    assert "brv: warning: the search index index.db was" in result.stderr


def test_with_index_rebuilds_once_when_work_hits_damage(project: Project) -> None:
    from brv_vc.services.derived.index import with_index

    write_entry(project, "a/b/one.md", "One", "apple")
    calls: list[int] = []

    def work(opened: object) -> str:
        calls.append(1)
        if len(calls) == 1:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return "ok"

    result, notes = with_index(project, work)
    assert result == "ok"
    assert len(calls) == 2
    assert any("damaged" in n and "rebuilt" in n for n in notes)

    def always(opened: object) -> str:
        raise sqlite3.DatabaseError("still broken")

    with pytest.raises(sqlite3.DatabaseError):
        with_index(project, always)
