"""Writers running together (curate batches, MCP calls, a dream, review decisions) lose no update."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from tests.conftest import REPO, run_brv

ENTRY = "conc/topic/entry_0.md"


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO)}


def _seed(root: Path) -> None:
    root.mkdir()
    assert run_brv("init", cwd=root).exit_code == 0
    added = run_brv("curate", "add", "conc/topic", "--title", "Entry 0", "--content", "base",
                    "--reason", "seed", cwd=root)
    assert added.exit_code == 0, added.stderr


def _updates(tag: str, count: int) -> list[dict[str, Any]]:
    """UPDATEs each adding its own section ``## <tag>_<j>``."""
    return [{"type": "UPDATE", "path": ENTRY, "content": f"## {tag}_{j}\n\nline {tag} {j}",
             "reason": "concurrent"} for j in range(count)]


def _batch(root: Path, tag: str, count: int) -> subprocess.Popen[str]:
    ops = root.parent / f"{tag}.json"
    ops.write_text(json.dumps(_updates(tag, count)))
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "curate", "--ops", str(ops),
                             "--json"], cwd=root, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _sections(root: Path) -> list[str]:
    text = (root / ".brv/context-tree" / ENTRY).read_text()
    return sorted(line[3:] for line in text.splitlines() if line.startswith("## W"))


def _logged(root: Path) -> tuple[int, int]:
    """(audit successes of the concurrent writers, the entry's updateCount)."""
    conn = sqlite3.connect(root / ".brv/state/brv.db")
    try:
        logged = conn.execute("SELECT count(*) FROM curate_log WHERE reason = 'concurrent' "
                              "AND status = 'success'").fetchone()[0]
        count = conn.execute("SELECT update_count FROM signals WHERE path = ?",
                             (ENTRY,)).fetchone()[0]
    finally:
        conn.close()
    return logged, count


def test_four_batches_of_updates_on_one_entry_keep_every_update(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _seed(root)
    _, base_count = _logged(root)
    writers, each = 4, 25
    procs = [_batch(root, f"W{k}", each) for k in range(writers)]
    reported = 0
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        reported += json.loads(out)["summary"]["updated"]
    expected = sorted(f"W{k}_{j}" for k in range(writers) for j in range(each))
    assert _sections(root) == expected  # what is on disk ...
    assert reported == writers * each  # ... is what was reported,
    logged, count = _logged(root)
    assert logged == writers * each  # logged
    assert count - base_count == writers * each  # and counted


def test_mcp_calls_and_cli_batches_together_keep_every_update(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _seed(root)
    params = StdioServerParameters(command=sys.executable, args=["-m", "brv_vc", "mcp"],
                                   cwd=str(root), env=_env())
    calls = 15

    async def main() -> list[bool]:
        with anyio.fail_after(240):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
                await s.initialize()
                procs = [_batch(root, f"W{k}", calls) for k in range(2)]
                errors = []
                for op in _updates("WM", calls):  # one UPDATE a call, while the batches run
                    result = await s.call_tool("brv-curate", {"operations": [op]})
                    errors.append(bool(result.is_error))
                for proc in procs:
                    assert proc.wait(timeout=200) == 0
                return errors

    assert anyio.run(main) == [False] * calls
    expected = sorted(f"{tag}_{j}" for tag in ("W0", "W1", "WM") for j in range(calls))
    assert _sections(root) == expected
    assert _logged(root)[0] == 3 * calls


def test_a_dream_and_curate_batches_together_keep_every_change(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _seed(root)
    notes = 8
    decisions = [{"operation": "consolidate", "action": "TEMPORAL_UPDATE", "file": ENTRY,
                  "note": f"dreamnote{i} holds", "reason": "newer context"}
                 for i in range(notes)]
    (tmp_path / "dream.json").write_text(json.dumps(decisions))
    procs = [_batch(root, f"W{k}", 15) for k in range(2)]
    dream = subprocess.run([sys.executable, "-m", "brv_vc", "dream", "apply",
                            str(tmp_path / "dream.json"), "--force", "--json"], cwd=root,
                           env=_env(), capture_output=True, text=True, timeout=300)
    for proc in procs:
        assert proc.wait(timeout=300) == 0
    assert dream.returncode == 0, dream.stderr
    applied = [op["status"] for op in json.loads(dream.stdout)["operations"]]
    assert applied == ["applied"] * notes
    text = (root / ".brv/context-tree" / ENTRY).read_text()
    assert all(f"dreamnote{i} holds" in text for i in range(notes))
    assert _sections(root) == sorted(f"W{k}_{j}" for k in range(2) for j in range(15))


def _reviewed_updates(root: Path, count: int) -> list[str]:
    """``count`` entries, each with a review-flagged UPDATE pending; returns their paths."""
    assert run_brv("review", "--enable", cwd=root).exit_code == 0
    paths = []
    for i in range(count):
        added = run_brv("curate", "add", "rev/topic", "--title", f"Reviewed {i}", "--content",
                        f"original {i}", "--reason", "seed", "--json", cwd=root)
        assert added.exit_code == 0, added.stderr
        paths.append(json.loads(added.stdout)["applied"][0]["file"])
    ops = [{"type": "UPDATE", "path": p, "content": f"## Changed\n\nchanged {i}",
            "reason": "to review", "review": True} for i, p in enumerate(paths)]
    flagged = run_brv("curate", "--ops", "-", cwd=root, input=json.dumps(ops))
    assert flagged.exit_code == 0, flagged.stderr
    return paths


def test_review_decisions_beside_curate_batches_keep_every_change(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    _seed(root)
    paths = _reviewed_updates(root, 8)
    pending = run_brv("review", "pending", "--json", cwd=root).json()["entries"]
    by_file = {e["changes"][0]["path"]: e["id"] for e in pending}
    assert sorted(by_file) == sorted(paths)
    approve = [str(by_file[p]) for p in paths[:4]]
    reject = [str(by_file[p]) for p in paths[4:]]
    procs = [_batch(root, f"W{k}", 15) for k in range(2)]
    deciders = [subprocess.Popen([sys.executable, "-m", "brv_vc", "review", verb, one],
                                 cwd=root, env=_env(), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
                for verb, ids in (("approve", approve), ("reject", reject)) for one in ids]
    for proc in procs + deciders:
        _out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
    tree = root / ".brv/context-tree"
    for i, rel in enumerate(paths):
        text = (tree / rel).read_text()
        kept = i < 4
        assert f"original {i}" in text, rel
        assert (f"changed {i}" in text) is kept, rel  # approved keeps, rejected restores
    assert _sections(root) == sorted(f"W{k}_{j}" for k in range(2) for j in range(15))
    left = run_brv("review", "pending", "--json", cwd=root).json()["entries"]
    assert left == []
    decided = run_brv("review", "pending", "--all", "--json", cwd=root).json()["entries"]
    assert sorted(e["status"] for e in decided) == ["approved"] * 4 + ["rejected"] * 4
