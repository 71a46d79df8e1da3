"""A cold search with the semantic lane finds which entry is which row of the matrix in a
small file kept per tree fingerprint (``vector-rows-<digest>.npz``), so it need not read and
match every entry of ``index.db`` (1.5 s of CPU at 100,000 entries). The file follows edits,
and a kept id that names another entry now (a rebuilt index) is caught by its content hash:
the search answers as if nothing had been kept."""

from __future__ import annotations

import json
import sqlite3

import pytest
from conftest import brv_process

from brv_vc.tree.project import Project

np = pytest.importorskip("numpy")
pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

LANE = {"BRV_EMBED_MODEL": "wordllama", "BRV_EMBED_BASE_URL": "", "BRV_EMBED_API_KEY_ENV": ""}
QUESTION = "keep a program running after I log out"
NAMES = ("nohup", "df", "rsync")


def _search(project: Project) -> list[str]:
    done = brv_process("search", QUESTION, "--json", "--no-record", cwd=project.root, env=LANE)
    assert done.exit_code == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["lanes"] == ["lexical", "semantic"]
    return [r["path"] for r in found["results"]]


def _kept(project: Project) -> dict[str, object]:
    (path,) = project.state.glob("vector-rows-*.npz")
    with np.load(path) as kept:
        return {key: kept[key] for key in kept.files}


def _entries(project: Project) -> dict[int, str]:
    with sqlite3.connect(project.state / "index.db") as conn:
        rows = conn.execute("SELECT id, hash FROM docs WHERE kind = 'entry'").fetchall()
        tree = conn.execute("SELECT value FROM meta WHERE key = 'fingerprint'").fetchone()[0]
    return {int(i): str(h) for i, h in rows} | {-1: str(tree)}


def _row_hashes(project: Project) -> list[str]:
    (path,) = project.state.glob("vectors-*.npz")
    with np.load(path) as kept:
        return [str(h) for h in kept["hashes"].tolist()]


def test_the_rows_of_the_entries_are_kept_per_tree_and_checked(project: Project, brv) -> None:
    contents = ("Allow a process to live when the terminal gets killed",
                "Display an overview of the filesystem disk space usage",
                "Transfer files to or from a remote host")
    for title, content in zip(NAMES, contents, strict=True):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    assert _search(project)[0] == "commands/shell/nohup.md"
    kept, entries, hashes = _kept(project), _entries(project), _row_hashes(project)
    assert str(kept["tree"]) == entries[-1]
    ids = [int(i) for i in kept["ids"]]  # type: ignore[attr-defined]
    assert sorted(ids) == sorted(i for i in entries if i >= 0)
    for i, row in zip(ids, kept["rows"], strict=True):  # type: ignore[call-overload]
        assert hashes[int(row)] == entries[i]

    # the same tree and version, but each id now names another entry's row
    (path,) = project.state.glob("vector-rows-*.npz")
    rows = kept["rows"]
    np.savez(path, **{**kept, "rows": np.roll(rows, 1)})  # type: ignore[arg-type]
    assert _search(project)[0] == "commands/shell/nohup.md"
    again = _kept(project)
    for i, row in zip(again["ids"], again["rows"], strict=True):  # type: ignore[call-overload]
        assert hashes[int(row)] == entries[int(i)]

    assert brv("curate", "update", "commands/shell/df.md", "--content",
               "Show free disk space on every mounted filesystem", cwd=project.root
               ).exit_code == 0
    assert _search(project)[0] == "commands/shell/nohup.md"
    assert str(_kept(project)["tree"]) == _entries(project)[-1] != entries[-1]
