"""index.db keeps no second copy of the text: contentless FTS5, compressed texts, old schemas rebuilt."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.index.db import SCHEMA_VERSION
from brv_vc.index.stems import stem_of
from brv_vc.lifecycle.sidecar import get_many, record_hits
from brv_vc.services.derived.index import index_project, open_synced
from brv_vc.services.query.search import search_tree
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path, open_state

NOW = datetime(2026, 1, 20, tzinfo=UTC)


def _fts_rows(project: Project, word: str) -> int:
    """Rows holding ``word`` (the index holds stems: ``apple`` is ``appl``)."""
    opened = open_synced(project)
    try:
        return int(opened.conn.execute("SELECT count(*) FROM fts WHERE fts MATCH ?",
                                       (stem_of(word),)).fetchone()[0])
    finally:
        opened.close()


def test_edits_and_deletes_leave_no_stale_postings(project: Project) -> None:
    write_entry(project, "a/b/one.md", "One", "apple orchard notes")
    write_entry(project, "a/b/two.md", "Two", "banana plantation notes")
    assert _fts_rows(project, "apple") == 1
    path = project.tree / "a/b/one.md"
    path.write_text(path.read_text().replace("apple", "cherry"))
    assert _fts_rows(project, "apple") == 0  # the old words went with the 'delete'
    assert _fts_rows(project, "cherry") == 1
    (project.tree / "a/b/two.md").unlink()
    assert _fts_rows(project, "banana") == 0
    assert _fts_rows(project, "notes") == 1
    opened = open_synced(project)
    try:
        check = opened.conn.execute(
            "INSERT INTO fts (fts, rank) VALUES ('integrity-check', 0)")  # raises if corrupt
        check.close()
        assert opened.conn.execute("SELECT count(*) FROM texts").fetchone()[0] == 1
    finally:
        opened.close()


def test_the_text_is_not_stored_twice(project: Project) -> None:
    for i in range(40):
        write_entry(project, f"a/b/e{i}.md", f"Entry {i}", "word " * 200 + f"unique{i}")
    index_project(project, rebuild=True, now=NOW)
    conn = sqlite3.connect(index_db_path(project))
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "fts_content" not in tables  # contentless: the inverted index only
    assert conn.execute("SELECT content FROM fts LIMIT 1").fetchone() == (None,)
    hit = search_tree(project, "unique7", now=NOW).results[0]
    assert hit.path == "a/b/e7.md"
    assert "unique7" in hit.excerpt


def test_an_older_index_is_rebuilt_and_the_sidecar_kept(project: Project, brv) -> None:
    write_entry(project, "a/b/one.md", "One", "apple")
    assert brv("search", "apple", cwd=project.root).exit_code == 0
    state = open_state(project)
    record_hits(state, ["a/b/one.md"], NOW.timestamp())
    before = get_many(state, ["a/b/one.md"])
    conn = sqlite3.connect(index_db_path(project))
    conn.execute("UPDATE meta SET value = '6' WHERE key = 'schema'")  # as version 6 left it
    conn.execute("DROP TABLE texts")
    conn.commit()
    conn.close()
    assert brv("index", cwd=project.root).exit_code == 0  # opening it finds version 6
    assert get_many(state, ["a/b/one.md"]) == before
    conn = sqlite3.connect(index_db_path(project))
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == (
        SCHEMA_VERSION,)
    assert conn.execute("SELECT count(*) FROM texts").fetchone() == (1,)
    result = brv("search", "apple", cwd=project.root)
    assert result.exit_code == 0
    assert "a/b/one.md" in result.stdout
