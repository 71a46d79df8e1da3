"""index.db stays within DESIGN.md's size budget: at most 1.5x the markdown it indexes.

An entry's relations and code paths are kept under its docs id, not its path again (the
path in every row and its indexes were 13 of 81 MB at 25,000 entries); the ``links`` and
``codelinks`` views still answer by path, in the order each entry wrote them.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bench.gen_tree import generate
from brv_vc.index.db import open_index
from brv_vc.index.sync import sync
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path


def test_a_built_index_is_at_most_one_and_a_half_times_the_markdown(tmp_path: Path) -> None:
    generate(tmp_path, 2000, seed=5)
    project = Project(tmp_path)
    handle = open_index(project)
    sync(project, handle.conn, mode="full")
    handle.conn.close()
    markdown = sum(p.stat().st_size for p in project.tree.rglob("*.md"))
    size = index_db_path(project).stat().st_size
    assert size <= 1.5 * markdown, f"index.db {size:,} B is {size / markdown:.2f}x the markdown"
    conn = sqlite3.connect(index_db_path(project))
    try:
        sources = {s for (s,) in conn.execute("SELECT DISTINCT source FROM codelinks")}
        paths = {p for (p,) in conn.execute("SELECT path FROM docs")}
        assert sources
        assert sources <= paths
        assert conn.execute("SELECT count(*) FROM links WHERE source IN "
                            "(SELECT path FROM docs)").fetchone()[0] > 0
    finally:
        conn.close()
