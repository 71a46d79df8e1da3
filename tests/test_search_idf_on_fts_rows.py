"""Scores divide out the idf FTS5 used, on its own document count, not the tree's file count."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from retrieval_util import write_entry

from brv_vc.index.postings import averages
from brv_vc.services.query import search_tree
from brv_vc.tree import generated
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path

NOW = datetime(2026, 1, 20, tzinfo=UTC)


def test_a_word_in_most_entries_but_few_files_still_scores(project: Project) -> None:
    """6 of 10 entries say "use"; 8 generated context.md files make it 6 of 18 indexed files.

    FTS5 floors the idf of a phrase in half its rows or more; the score was divided by the
    idf of 6 in 18 instead, so every "use" entry scored ~1e-6 (relevance 0).
    """
    for i in range(6):
        write_entry(project, f"notes/n{i}/use_{i}.md", f"Note {i}", f"We use tool {i} daily.")
    for i in range(4):
        write_entry(project, f"other/o{i}/other_{i}.md", f"Other {i}", f"Plain text {i}.")
    for folder in [*(f"notes/n{i}" for i in range(6)), "notes", "other"]:
        (project.tree / folder / "context.md").write_text(generated.mark(f"# {folder}\n"))
    found = search_tree(project, "use", now=NOW, record=False)
    conn = sqlite3.connect(index_db_path(project))
    try:
        files = int(conn.execute("SELECT value FROM meta WHERE key = 'files'").fetchone()[0])
        assert averages(conn)[0] == 10 == int(conn.execute("SELECT count(*) FROM fts").fetchone()[0])
    finally:
        conn.close()
    assert files == 18
    assert len(found.results) == 6
    assert found.results[0].relevance > 0.3
