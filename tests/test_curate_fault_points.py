"""A kill at each step of a folder DELETE, a MERGE and a restore: the next command finishes it.

The kill comes from the process itself at a named step (``BRV_FAULT_AT``, brv_vc/tree/fault.py),
so each moment that matters is hit every run; bench/fault_curate.py adds random moments and
the full counts. Also: a damaged journal row is set aside with a note, never blocking.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from brv_vc.lifecycle import sidecar
from tests.conftest import REPO, run_brv

LINKS = 12


def _brv_killed(root: Path, fault: str, *args: str) -> int:
    env = {**os.environ, "PYTHONPATH": str(REPO), "BRV_FAULT_AT": fault}
    return subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=root, env=env,
                          capture_output=True, timeout=120).returncode


def _entry(title: str, body: str, related: tuple[str, ...] = ()) -> str:
    links = "".join(f"\n  - {r}" for r in related)
    return (f'---\ntitle: "{title}"\nsummary: "{title}"\n'
            + (f"related:{links}\n" if related else "")
            + f"---\n\n## Narrative\n\n{body}\n")


def _write(root: Path, rel: str, text: str) -> None:
    path = root / ".brv/context-tree" / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _log(root: Path) -> list[tuple[str, str, str, str]]:
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    try:
        return conn.execute("SELECT type, path, status, message FROM curate_log "
                            "WHERE reason = 'fault' ORDER BY id").fetchall()
    finally:
        conn.close()


def _left(root: Path) -> list[str]:
    state = root / ".brv/state"
    return sorted([p.name for p in state.glob(".curate-staging-*")]
                  + [p.name for p in state.glob("pending/*")])


@pytest.fixture
def merge_project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    _write(root, "src/a/source.md", _entry("Source", "source body words"))
    _write(root, "dst/a/target.md", _entry("Target", "target body words"))
    for i in range(LINKS):
        _write(root, f"links/t{i % 3}/l{i}.md", _entry(f"Link {i}", f"link {i}",
                                                      ("src/a/source.md",)))
    assert run_brv("index", cwd=root).exit_code == 0
    ops = [{"type": "MERGE", "path": "src/a/source.md", "target": "dst/a/target.md",
            "reason": "fault"}]
    (tmp_path / "ops.json").write_text(json.dumps(ops))
    return root


@pytest.mark.parametrize("fault", ["curate-staged", "curate-rename:1", "curate-rename:7",
                                   f"curate-rename:{LINKS + 1}", "curate-delete",
                                   "curate-applied"])
def test_a_merge_killed_at_any_step_is_finished_whole_and_logged_once(
        merge_project: Path, fault: str) -> None:
    root = merge_project
    ops = root.parent / "ops.json"
    assert _brv_killed(root, fault, "curate", "--ops", str(ops)) == -signal.SIGKILL
    nxt = run_brv("tree", cwd=root)
    assert nxt.exit_code == 0, nxt.stderr
    assert "finished and logged 1 operation(s) of an interrupted curate batch" in nxt.stderr
    tree = root / ".brv/context-tree"
    assert not (tree / "src/a/source.md").exists()
    assert "source body words" in (tree / "dst/a/target.md").read_text()
    links = [text.decode() for rel, text in _knowledge(tree).items() if rel.startswith("links/")]
    assert len(links) == LINKS
    assert all("dst/a/target.md" in t and "src/a/source.md" not in t for t in links)
    log = _log(root)
    assert [row[:3] for row in log] == [("MERGE", "src/a/source.md", "success")]
    # killed once all was applied, the next command only logs it: it says which it did
    assert ("finished by the next command" in log[0][3]) == (fault != "curate-applied")
    assert _left(root) == []


def test_a_folder_delete_cut_in_the_middle_is_finished(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    for i in range(30):
        _write(root, f"big/t{i % 3}/e{i}.md", _entry(f"Big {i}", f"big {i}"))
    assert run_brv("index", cwd=root).exit_code == 0
    ops = [{"type": "ADD", "path": "other/t", "title": "Fresh", "content": "x", "reason": "fault"},
           {"type": "DELETE", "path": "big", "reason": "fault"},
           {"type": "ADD", "path": "big/t0", "title": "Again", "content": "y", "reason": "fault"}]
    (tmp_path / "ops.json").write_text(json.dumps(ops))
    assert _brv_killed(root, "curate-delete", "curate", "--ops",
                       str(tmp_path / "ops.json")) == -signal.SIGKILL
    # what a kill inside the folder's removal leaves: part of it gone
    for path in sorted((root / ".brv/context-tree/big").rglob("e*.md"))[:17]:
        path.unlink()
    nxt = run_brv("search", "big", cwd=root)  # the read path settles too
    assert nxt.exit_code == 0, nxt.stderr
    tree = root / ".brv/context-tree"
    assert sorted(rel for rel in _knowledge(tree) if rel.startswith("big/")) == ["big/t0/again.md"]
    assert (tree / "other/t/fresh.md").exists()
    assert [row[:3] for row in _log(root)] == [
        ("ADD", "other/t", "success"), ("DELETE", "big", "success"), ("ADD", "big/t0", "success")]
    assert _left(root) == []


@pytest.mark.parametrize("fault", ["restore-written", "restore-unlinked:1", "restore-unlinked:2"])
def test_a_restore_killed_at_any_step_is_settled_by_the_next_search(tmp_path: Path,
                                                                      fault: str) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    _write(root, "arch/a/old_note.md", _entry("Old note", "zebracorn knowledge"))
    original = (root / ".brv/context-tree/arch/a/old_note.md").read_bytes()
    assert run_brv("archive", "arch/a/old_note.md", cwd=root).exit_code == 0
    assert _brv_killed(root, fault, "restore", "arch/a/old_note.md") == -signal.SIGKILL
    found = run_brv("search", "zebracorn", "--json", cwd=root)
    assert found.exit_code == 0, found.stderr
    paths = [r["path"] for r in found.json()["results"]]
    assert paths == ["arch/a/old_note.md"]
    assert (root / ".brv/context-tree/arch/a/old_note.md").read_bytes() == original
    assert not (root / ".brv/context-tree/_archived").exists() or not any(
        (root / ".brv/context-tree/_archived").rglob("*.md"))
    assert _left(root) == []


def test_a_damaged_journal_row_is_set_aside_with_a_note(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    conn.execute("CREATE TABLE IF NOT EXISTS curate_journal (pid INTEGER PRIMARY KEY, "
                 "time REAL NOT NULL, ops TEXT NOT NULL)")
    conn.execute("INSERT INTO curate_journal VALUES (7, 1.7e9, 'garbage{')")
    conn.commit()
    conn.close()
    (root / ".brv/state/pending").mkdir(exist_ok=True)
    (root / ".brv/state/pending/curate-7.json").write_text('{"pid": 7}')
    first = run_brv("tree", cwd=root)
    assert first.exit_code == 0
    assert "a damaged row of the curate journal (batch 7) was set aside" in first.stderr
    assert "curate_journal_quarantine" in first.stderr
    again = run_brv("tree", cwd=root)
    assert again.exit_code == 0
    assert again.stderr == ""  # said once; the row is kept aside for inspection
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    kept = conn.execute("SELECT pid, ops FROM curate_journal_quarantine").fetchall()
    conn.close()
    assert kept == [(7, "garbage{")]
    assert _left(root) == []


def _knowledge(tree: Path) -> dict[str, bytes]:
    return {p.relative_to(tree).as_posix(): p.read_bytes() for p in tree.rglob("*.md")
            if not p.name.startswith("_") and p.name != "context.md"
            and not p.name.endswith((".abstract.md", ".overview.md"))}


@pytest.mark.parametrize("action", ["CROSS_REFERENCE", "MERGE"])
def test_a_dream_operation_killed_before_its_log_line_is_rolled_back_whole(
        tmp_path: Path, action: str) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    _write(root, "api/auth/a.md", _entry("Alpha", "alpha words"))
    _write(root, "api/auth/b.md", _entry("Beta", "beta words"))
    _write(root, "web/x/c.md", _entry("Gamma", "gamma words", ("api/auth/b.md",)))
    assert run_brv("index", cwd=root).exit_code == 0
    assert run_brv("review", "--enable", cwd=root).exit_code == 0
    tree = root / ".brv/context-tree"
    before = _knowledge(tree)
    decision = ({"operation": "consolidate", "action": "CROSS_REFERENCE",
                 "files": ["api/auth/a.md", "api/auth/b.md"], "reason": "fault"}
                if action == "CROSS_REFERENCE" else
                {"operation": "consolidate", "action": "MERGE", "target": "api/auth/a.md",
                 "sources": ["api/auth/b.md"], "reason": "fault"})
    (tmp_path / "d.json").write_text(json.dumps([decision]))
    assert _brv_killed(root, "dream-acted", "dream", "apply", str(tmp_path / "d.json"),
                       "--force") == -signal.SIGKILL
    nxt = run_brv("tree", cwd=root)
    assert nxt.exit_code == 0, nxt.stderr
    assert f"undid the interrupted dream operation {action}" in nxt.stderr
    after = _knowledge(tree)
    assert after == before  # target, source and the backlink in web/x/c.md all back
    assert run_brv("review", "pending", "--json", cwd=root).json()["entries"] == []  # withdrawn
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    assert conn.execute("SELECT status FROM review").fetchall() == [("rejected",)]
    conn.close()
    if action == "MERGE":
        conn = sqlite3.connect(root / ".brv/state/brv.db")
        rows = conn.execute("SELECT status FROM curate_log WHERE path = 'api/auth/b.md' "
                            "ORDER BY id").fetchall()
        conn.close()
        assert rows == [("success",), ("undone",)]
    assert _left(root) == []


@pytest.mark.slow
def test_the_fault_script_finds_nothing_lost_half_done_or_left(tmp_path: Path) -> None:
    """bench/fault_curate.py, bounded: a few random and targeted kills of each kind."""
    out = tmp_path / "table.json"
    run = subprocess.run([sys.executable, str(REPO / "bench/fault_curate.py"), "--trials", "3",
                          "--writers", "3", "--ops", "10", "--seed", "7", "--work",
                          str(tmp_path / "work"), "--json", str(out)],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    table = json.loads(out.read_text())
    assert [s["scenario"] for s in table["scenarios"]] == ["curate-delete", "curate-merge",
                                                           "restore"]
    for row in table["scenarios"]:
        assert (row["lost"], row["half"], row["manual"]) == (0, 0, 0), row["notes"]
        assert row["kills"] >= 1
    assert table["writers"]["lost"] == 0
    assert table["writers"]["sections_on_disk"] == 30


def test_a_dream_operation_failing_half_way_leaves_nothing(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    _write(root, "api/auth/a.md", _entry("Alpha", "alpha words"))
    assert run_brv("index", cwd=root).exit_code == 0
    tree = root / ".brv/context-tree"
    before = _knowledge(tree)
    decision = [{"operation": "consolidate", "action": "CROSS_REFERENCE",
                 "files": ["api/auth/a.md", "api/auth/gone.md"], "reason": "r"}]
    out = run_brv("dream", "apply", "-", "--force", "--json", cwd=root,
                  input=json.dumps(decision))
    ops = out.json()["operations"]
    assert [op["status"] for op in ops] == ["failed"]
    assert _knowledge(tree) == before  # a.md was linked, then put back
    assert _left(root) == []


def test_a_killed_batch_whose_pid_runs_again_is_still_finished(merge_project: Path) -> None:
    root = merge_project
    ops = root.parent / "ops.json"
    assert _brv_killed(root, "curate-staged", "curate", "--ops", str(ops)) == -signal.SIGKILL
    pending = root / ".brv/state/pending"
    (marker,) = pending.glob("curate-*.json")
    marker.unlink()  # as if the killed pid were reused by a live process (this one)
    (pending / f"curate-{os.getpid()}.json").write_text(json.dumps({"pid": os.getpid()}))
    nxt = run_brv("tree", cwd=root)
    assert "finished and logged 1 operation(s)" in nxt.stderr
    assert not (root / ".brv/context-tree/src/a/source.md").exists()
    assert [row[:3] for row in _log(root)] == [("MERGE", "src/a/source.md", "success")]
    assert _left(root) == []


def test_a_dream_archive_killed_half_way_gets_its_importance_back(tmp_path: Path) -> None:
    """The sidecar row (importance, maturity) is not derived: a rollback must restore it too."""
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    _write(root, "api/auth/a.md", _entry("Alpha", "alpha words"))
    _write(root, "api/auth/old.md", _entry("Old", "old words"))
    assert run_brv("index", cwd=root).exit_code == 0
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    sidecar.ensure_schema(conn)
    with conn:
        conn.execute("INSERT OR REPLACE INTO signals VALUES ('api/auth/old.md', 87.5, 'core', "
                     "9, 4, 1700000000.0, 1700000000.0)")
    conn.close()
    tree = root / ".brv/context-tree"
    before = _knowledge(tree)
    decision = {"operation": "prune", "action": "ARCHIVE", "file": "api/auth/old.md",
                "reason": "fault"}
    (tmp_path / "d.json").write_text(json.dumps([decision]))
    assert _brv_killed(root, "dream-acted", "dream", "apply", str(tmp_path / "d.json"),
                       "--force") == -signal.SIGKILL
    nxt = run_brv("tree", cwd=root)
    assert nxt.exit_code == 0, nxt.stderr
    assert "undid the interrupted dream operation ARCHIVE" in nxt.stderr
    assert _knowledge(tree) == before
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    row = conn.execute("SELECT importance, maturity, access_count, update_count FROM signals "
                       "WHERE path = 'api/auth/old.md'").fetchone()
    conn.close()
    assert row == (87.5, "core", 9, 4)
    assert _left(root) == []
