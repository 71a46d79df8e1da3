"""A faster build writes the FTS5 rows the Snowball stems' first code wrote, token for token.

The build's stemming pass was made cheaper (ASCII words in one C pass, the memo read through
``map``); what a word stems to must not move. The reference is main when the stems landed
(30e8522): its code, from a ``git archive``, and this checkout's each index a copy of the
same generated tree with unusual words added (accents, the Kelvin sign, underscores, digits,
CJK, tabs and NULs' neighbours), then an edit, and every token of every column of every row
(``fts5vocab`` 'instance': term, row, column, position), the stored texts, the docs rows (ids
too), the relation and code-path rows and the schema's tables and indexes must agree: the
build was made cheaper again after (docs rows written a batch at a time, the link tables'
indexes made at the build's end, code paths found in fewer passes).
This checkout's code runs twice: as it is, and with a memo so small that it starts again
many times within one build.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from reference_code import extract, trees, unmeasured

from brv_vc.index.writer import BATCH

REFERENCE = "30e8522"  # main when the Snowball stems landed, before the build was made faster
ROOT = Path(__file__).resolve().parent.parent

_ODD = {
    "accents.md": '---\ntitle: "Crème Brûlée naïve"\nsummary: "Ünïcödé wörds"\n'
                  'tags: ["café"]\nkeywords: ["straße"]\nrelated: []\ncreatedAt: ""\n'
                  'updatedAt: "2026-01-02T03:04:05Z"\n---\n## Narrative\n'
                  "The \u212aelvin sign, \uff21\uff22 fullwidth, \u65e5\u672c\u8a9e text, "
                  "snake_case_words and CamelCase9Words, x86_64, tabs\there; ÀB_c-d 12x.\n",
    "ascii.md": '---\ntitle: "Plain_ASCII: running QUICKLY"\nsummary: ""\ntags: []\n'
                'keywords: ["Regularly", "generously"]\nrelated: []\ncreatedAt: ""\n'
                'updatedAt: "2026-01-02T03:04:05Z"\n---\n## Narrative\n'
                "Companies' generous fairly-run yearly deploys; a~b|c{d}e^f`g\\h 0x1F 3.14 "
                "@user #tag $var %mod &amp; don't can't o'clock.\n",
}

_BUILD = r"""
import sys
from pathlib import Path
from brv_vc.index import stems
from brv_vc.services.derived.index import index_project
from brv_vc.tree.project import Project
if len(sys.argv) > 2:
    stems.MEMO = int(sys.argv[2])
project = Project(Path(sys.argv[1]))
index_project(project, rebuild=True, now=None)
for path in sorted(project.tree.rglob("*.md"))[5:25]:
    with path.open("a", encoding="utf-8") as handle:
        handle.write("\nEdited: Réédité, rebuilt_and ReRunning 42 times.\n")
# one sync that also adds, removes and renames: the ids given are SQLite's own
entries = sorted(project.tree.rglob("*.md"))
entries[30].unlink()
entries[31].rename(entries[31].with_name("renamed_" + entries[31].name))
(entries[32].parent / "added_in_the_same_sync.md").write_bytes(entries[33].read_bytes())
index_project(project, rebuild=False, now=None)
print(stems.__file__)
"""


def _rows(root: Path) -> dict[str, list[tuple[object, ...]]]:
    conn = sqlite3.connect(root / ".brv/state/index.db")
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.vocab_i USING fts5vocab(main, fts, 'instance')")
        ids = dict(conn.execute("SELECT id, path FROM docs"))
        return {
            "fts": sorted((term, ids[doc], col, offset) for term, doc, col, offset in
                          conn.execute("SELECT term, doc, col, offset FROM vocab_i")),
            "texts": sorted((ids[i], z) for i, z in conn.execute("SELECT id, z FROM texts")),
            # every column but the stat (each copy of the tree has its own ctimes), ids too
            "docs": sorted(conn.execute("SELECT id, path, dir, kind, size, hash, fp, title, "
                                        "updated, problem FROM docs")),
            "links": list(conn.execute("SELECT l.rowid, d.path, l.target, l.raw FROM link_rows l "
                                       "JOIN docs d ON d.id = l.doc ORDER BY l.rowid")),
            "codelinks": list(conn.execute("SELECT c.rowid, d.path, c.path, c.how FROM "
                                           "codelink_rows c JOIN docs d ON d.id = c.doc "
                                           "ORDER BY c.rowid")),
            # the tables and indexes as the schema makes them (a build makes some at its end)
            "schema": sorted(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master")),
            # the vocabulary the fuzzy search suggests from, read off the stemmed row
            "terms": sorted(conn.execute("SELECT * FROM terms")),
        }
    finally:
        conn.close()


def _build(code: Path, tree: Path, *memo: str) -> dict[str, list[tuple[object, ...]]]:
    env = {**os.environ, "PYTHONPATH": str(code)}
    env = env if code == ROOT else unmeasured(env)  # the reference: not this code
    # run outside the checkout: ``python -c`` puts the working folder first on sys.path
    done = subprocess.run([sys.executable, "-c", _BUILD, str(tree), *memo], env=env,
                          cwd=tree.parent, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(code / "brv_vc/index/stems.py")
    return _rows(tree)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return extract(REFERENCE, tmp_path_factory.mktemp("reference"))


def test_build_and_edit_write_the_reference_rows(tmp_path: Path, reference: Path) -> None:
    # more entries than the writer's batch: a build's own path (indexes made at its end)
    trees(tmp_path, BATCH + 100, 5, _ODD, "old", "new", "small")
    theirs = _build(reference, tmp_path / "old")
    mine = _build(ROOT, tmp_path / "new")
    small = _build(ROOT, tmp_path / "small", "50")
    assert mine == theirs
    assert small == theirs
    terms = {row[0] for row in mine["fts"]}
    # the odd words reached the table, stemmed as Snowball and unicode61 say
    assert {"kelvin", "creme", "brule", "naiv", "cafe", "run", "quick", "regular",
            "generous", "compani", "reedit", "x86", "64"} <= terms
    assert len(mine["fts"]) > 40_000
