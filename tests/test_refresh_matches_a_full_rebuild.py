"""The refresh of N changed entries leaves the derived state the code before the issue-24
speed-ups left, bit for bit, and the same index rows and folder summaries as a rebuild."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from reference_code import extract, trees, unmeasured

from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

# main before the derived refresh was made faster (issue 24): the reference
REFERENCE = "b9a63a4"
ROOT = Path(__file__).resolve().parent.parent

_ODD = {
    # older ByteRover frontmatter (PyYAML path, legacy keys seeded once)
    "legacy.md": "---\ntitle: Legacy Note\nimportance: 70\nmaturity: validated\ntags: [old]\n"
                 "updatedAt: 2025-05-01T10:00:00Z\n---\n# Legacy Note\n\nSee src/old/thing.py.\n",
    # code references in every written form, relations, a URL, non-ASCII words
    "refs.md": '---\ntitle: "Références"\nsummary: "Crème brûlée paths"\ntags: ["x"]\n'
               'keywords: []\nrelated: ["@other/topic/note.md"]\ncreatedAt: ""\n'
               'updatedAt: "2026-01-02T03:04:05Z"\n---\n## Raw Concept\n**Files:**\n'
               "- src/a.py\n- `lib/b.rs:12`\n\nSee https://x.org/c/d.py and www.site.org/e/f, "
               "`pkg/mod.py`, ./docs/g.md and and/or.\n\n## Relations\n- @auth/jwt\n",
    # a file that fails to parse: a row with its problem, never in the FTS5 table
    "broken.md": "---\ntitle: [unclosed\n---\nbody\n",
}

# The scenario, run in a child process by the code under test or by the reference: the whole
# tree refreshed, then entries edited, deleted, moved and added, and the refresh of those
# paths that 'brv vc commit' and the pre-commit hook run.
_SCENARIO = r"""
import json, sys
from datetime import UTC, datetime
from pathlib import Path
from brv_vc.services.derived.refreshing import refresh
from brv_vc.tree.project import Project
project, entries = Project(Path(sys.argv[1])), json.loads(sys.argv[2])
now = datetime(2026, 2, 1, tzinfo=UTC)
tree = project.tree
refresh(project, None, now)
topic = entries[0].rsplit("/", 1)[0]
changed = list(entries[10:40])
for i, rel in enumerate(changed):
    with (tree / rel).open("a", encoding="utf-8") as handle:
        handle.write(f"\nEdited {i}: see src/m{i}/x.py and `lib/y{i}.rs`.\n\n"
                     f"## Relations\n- @{entries[i]}\n")
for rel in entries[40:43]:
    (tree / rel).unlink()
    changed.append(rel)
moved = entries[43].rsplit("/", 2)[0] + "/brand_new/moved_here.md"
(tree / moved).parent.mkdir()
(tree / entries[43]).rename(tree / moved)
added = f"{topic}/fresh_entry.md"
(tree / added).write_bytes((tree / entries[1]).read_bytes())
refs = tree / topic / "refs.md"
refs.write_text(refs.read_text(encoding="utf-8") + "\nMore: src/z/z.py\n", encoding="utf-8")
changed += [entries[43], moved, added, f"{topic}/refs.md"]
report = refresh(project, changed, now, defer=True, manifest=False)
assert not report.problems, report.problems
import brv_vc
print(Path(brv_vc.__file__).parent)
"""


def _dump(project: Project) -> dict[str, object]:
    """Every index row, folder summary and summary record, less what a file's write time sets."""
    conn = sqlite3.connect(project.state / "index.db")
    try:
        conn.execute("CREATE VIRTUAL TABLE temp.vocab_i USING fts5vocab(main, fts, 'instance')")
        ids = dict(conn.execute("SELECT id, path FROM docs"))
        dump: dict[str, object] = {
            "docs": sorted(conn.execute(
                "SELECT path, dir, kind, size, hash, fp, title, updated, problem FROM docs")),
            "links": sorted(conn.execute("SELECT source, target, raw FROM links")),
            # in the order written, per entry (code_links keeps a Files: list's order)
            "codelinks": sorted(conn.execute(
                "SELECT source, rowid - (SELECT min(rowid) FROM codelinks c "
                "WHERE c.source = codelinks.source), path, how FROM codelinks")),
            "texts": sorted((ids[i], z) for i, z in conn.execute("SELECT id, z FROM texts")),
            # the FTS5 table's whole content: every token of every column of every row
            "fts": sorted((term, ids[doc], col, offset) for term, doc, col, offset in
                          conn.execute("SELECT term, doc, col, offset FROM vocab_i")),
            "meta": sorted(conn.execute(
                "SELECT key, value FROM meta WHERE key IN ('fingerprint', 'files')")),
        }
    finally:
        conn.close()
    dump["summaries"] = {p.relative_to(project.tree).as_posix(): p.read_bytes()
                         for p in sorted(project.tree.rglob("_index.md"))}
    return dump


def _state(project: Project) -> dict[str, object]:
    conn = sqlite3.connect(project.state / "brv.db")
    try:
        return {
            "records": sorted(conn.execute(
                "SELECT path, input_hash, sha FROM derived_files WHERE path LIKE '%_index.md'")),
            "queue": sorted(conn.execute(
                "SELECT path FROM summary_queue WHERE state = 'pending'")),
        }
    finally:
        conn.close()


def _run(code: Path, project: Path, entries: list[str]) -> None:
    import json

    env = {**os.environ, "PYTHONPATH": str(code)}
    env = env if code == ROOT else unmeasured(env)  # the reference: not this code
    # run from the project, not the checkout: 'python -c' puts the current folder first on
    # the import path, so from the repository root the reference would import this checkout
    done = subprocess.run([sys.executable, "-c", _SCENARIO, str(project), json.dumps(entries)],
                          env=env, cwd=project, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(code / "brv_vc"), (done.stdout, code)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return extract(REFERENCE, tmp_path_factory.mktemp("reference"))


def test_refresh_leaves_what_the_reference_code_left(tmp_path: Path, reference: Path) -> None:
    entries, topic = trees(tmp_path, 150, 3, _ODD, "new", "old")
    _run(ROOT, tmp_path / "new", entries)
    _run(reference, tmp_path / "old", entries)
    new, old = Project(tmp_path / "new"), Project(tmp_path / "old")
    mine, theirs = _dump(new), _dump(old)
    # every row the reference wrote, but the FTS5 tokens: the stems are Snowball's since
    # schema 11 (the reference's were porter's), compared with a full rebuild below instead
    for key in theirs.keys() - {"fts"}:
        assert mine[key] == theirs[key], key
    # the queue of the changed entries (the first refresh drains the rest within a time budget)
    touched = {*entries[10:40], f"{topic}/fresh_entry.md", f"{topic}/refs.md"}
    states = [_state(one) for one in (new, old)]
    for state in states:
        state["queue"] = [row for row in state["queue"]  # type: ignore[attr-defined]
                          if row[0] in touched or "brand_new" in row[0]]
    assert states[0] == states[1]
    assert len(states[0]["queue"]) == len(touched) + 1  # type: ignore[arg-type]
    # the comparison covers what changed: moved, added, removed, a problem, a code path
    docs = {row[0]: row for row in mine["docs"]}  # type: ignore[attr-defined]
    assert f"{topic}/fresh_entry.md" in docs
    assert entries[40] not in docs
    assert docs[f"{topic}/broken.md"][-1]
    assert any(row[0] == f"{topic}/refs.md" and row[2] == "src/z/z.py"
               for row in mine["codelinks"])  # type: ignore[attr-defined]

    # and the same rows and summaries as a tree indexed and summarized from scratch
    init_project(tmp_path / "rebuilt")
    rebuilt = Project(tmp_path / "rebuilt")
    shutil.rmtree(rebuilt.tree)
    shutil.copytree(new.tree, rebuilt.tree, ignore=shutil.ignore_patterns("_index.md"))
    from brv_vc.services.derived.index import index_project
    from brv_vc.summary import folders
    from brv_vc.summary.engine import EXTRACTIVE
    from brv_vc.summary.records import Records
    from brv_vc.tree.statedb import open_state

    index_project(rebuilt, rebuild=True, now=None)  # type: ignore[arg-type]
    conn = open_state(rebuilt)
    try:
        folders.regenerate(rebuilt, None, EXTRACTIVE, Records(conn))
    finally:
        conn.close()
    scratch = _dump(rebuilt)
    for key in ("links", "codelinks", "fts", "meta", "summaries"):
        assert mine[key] == scratch[key], key
    assert mine["docs"] == scratch["docs"]
