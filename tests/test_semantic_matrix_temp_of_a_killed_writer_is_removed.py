"""A process killed while writing the semantic lane's matrix file leaves no temp file for good.

The matrix file (``vectors-<digest>.npz``, 100 MB at 100,000 entries) is written through a
temp file named for the writer's pid; a ``kill -9`` between the write and the rename used to
leave ``.brv/state/vectors-<digest>.npz.<pid>.tmp`` behind forever. Now the temp file is
written in ``.brv/state/tmp`` (swept by the next command when its process is gone), and the
next command removes the old-style temp files of dead processes too, never a live one's
(``tree/intents.sweep_temps``, the one home of that rule).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import brv_process
from vc_helpers import dead_pid

from brv_vc.tree.project import Project

np = pytest.importorskip("numpy")
pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

LANE = {"BRV_EMBED_MODEL": "wordllama", "BRV_EMBED_BASE_URL": "", "BRV_EMBED_API_KEY_ENV": ""}
QUESTION = "keep a program running after I log out"


def _search(project: Project, **env: str) -> tuple[int, dict[str, object] | None]:
    done = brv_process("search", QUESTION, "--json", "--no-record", cwd=project.root,
                       env={**LANE, **env})
    return done.exit_code, (json.loads(done.stdout) if done.exit_code == 0 else None)


def _temps(project: Project) -> list[str]:
    """Every temp file under ``.brv/state`` (any folder), by name relative to it."""
    return sorted(str(p.relative_to(project.state)) for p in project.state.rglob("*.tmp"))


def _matrix_version(project: Project) -> int:
    (path,) = project.state.glob("vectors-*.npz")
    with np.load(path) as kept:
        return int(kept["version"])


@pytest.fixture
def lane_tree(project: Project, brv) -> Project:
    for title, content in (("nohup", "Allow a process to live when the terminal gets killed"),
                           ("df", "Display an overview of the filesystem disk space usage")):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    return project


def test_a_search_killed_while_writing_the_matrix_leaves_nothing_after_the_next(
        lane_tree: Project) -> None:
    code, _ = _search(lane_tree, BRV_FAULT_AT="vectors-written")
    assert code == -9  # killed by itself between the temp file's write and its rename
    left = _temps(lane_tree)
    assert left, "the killed writer left no temp file: the kill came too late"
    assert not list(lane_tree.state.glob("vectors-*.npz"))

    code, found = _search(lane_tree)
    assert code == 0
    assert found is not None
    assert found["lanes"] == ["lexical", "semantic"]
    assert _temps(lane_tree) == []
    assert _matrix_version(lane_tree) >= 1


def test_the_next_command_removes_old_temp_files_of_dead_processes_only(
        lane_tree: Project) -> None:
    code, _ = _search(lane_tree)
    assert code == 0
    (matrix,) = lane_tree.state.glob("vectors-*.npz")
    dead = matrix.with_name(f"{matrix.name}.{dead_pid()}.tmp")
    dead.write_bytes(b"x" * 4096)  # what a killed writer of the old name left
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as live:
        busy = matrix.with_name(f"{matrix.name}.{live.pid}.tmp")
        busy.write_bytes(b"y")
        try:
            assert brv_process("curate", "add", "commands/shell", "--title", "rsync",
                               "--content", "Transfer files to or from a remote host",
                               cwd=lane_tree.root).exit_code == 0
            assert not dead.exists()  # gone at the next command's start, not the lane's
            assert busy.exists()  # a live writer's temp file stays
            code, found = _search(lane_tree)  # a new vector: the matrix file is written anew
            assert code == 0
            assert found is not None
            assert busy.exists()
        finally:
            live.kill()
    assert Path(matrix).is_file()
