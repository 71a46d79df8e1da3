"""A search with the semantic lane reads the model's vectors as one matrix file beside
``vectors.db``, written at the database's version: an edit makes the next search read the
rows again and write the file anew, and a damaged file is only rewritten."""

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


def _search(project: Project) -> dict[str, object]:
    done = brv_process("search", QUESTION, "--json", "--no-record", cwd=project.root, env=LANE)
    assert done.exit_code == 0, done.stderr
    found: dict[str, object] = json.loads(done.stdout)
    assert found["lanes"] == ["lexical", "semantic"]
    return found


def _matrix(project: Project) -> tuple[int, list[str], object]:
    files = list(project.state.glob("vectors-*.npz"))
    assert len(files) == 1, files
    with np.load(files[0]) as kept:
        return int(kept["version"]), kept["hashes"].tolist(), kept["matrix"]


def _version(project: Project) -> int:
    with sqlite3.connect(project.state / "vectors.db") as conn:
        return int(conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()[0])


def _hash(project: Project, path: str) -> str:
    with sqlite3.connect(project.state / "index.db") as conn:
        return str(conn.execute("SELECT hash FROM docs WHERE path = ?", (path,)).fetchone()[0])


def test_the_lane_reads_one_matrix_file_kept_at_the_database_version(
        project: Project, brv) -> None:
    for title, content in (("nohup", "Allow a process to live when the terminal gets killed"),
                           ("df", "Display an overview of the filesystem disk space usage"),
                           ("rsync", "Transfer files to or from a remote host")):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    first = _search(project)
    assert first["results"][0]["path"] == "commands/shell/nohup.md"  # type: ignore[index]
    version, hashes, rows = _matrix(project)
    assert version == _version(project)
    assert sorted(hashes) == sorted(_hash(project, f"commands/shell/{n}.md")
                                    for n in ("nohup", "df", "rsync"))
    assert rows.shape == (3, 256)  # type: ignore[attr-defined]

    assert brv("curate", "update", "commands/shell/df.md", "--content",
               "Show free disk space on every mounted filesystem", cwd=project.root
               ).exit_code == 0
    _search(project)
    version, hashes, _ = _matrix(project)
    assert version == _version(project)
    assert _hash(project, "commands/shell/df.md") in hashes

    path = next(project.state.glob("vectors-*.npz"))
    path.write_bytes(b"not a matrix")
    again = _search(project)
    assert again["results"][0]["path"] == "commands/shell/nohup.md"  # type: ignore[index]
    assert _matrix(project)[0] == _version(project)
