"""What killed processes leave is seen by one check (tree.leftovers), the click-free paths' included."""

from __future__ import annotations

import subprocess
from pathlib import Path

from conftest import brv_process

from brv_vc.services import recovery
from brv_vc.tree.leftovers import anything_left, left_behind
from brv_vc.tree.project import Project


def _dead_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def test_which_leftovers_each_answer_counts(tmp_path: Path) -> None:
    state = tmp_path / "state"
    assert (left_behind(state), anything_left(state)) == (False, False)  # no state at all
    (state / "pending").mkdir(parents=True)
    (state / "pending" / "pull-123.json").write_text("{}")  # a pull's: vc recover settles it
    assert (left_behind(state), anything_left(state)) == (False, False)
    (state / "pending" / ".archive-123.json.tmp").write_text("{")  # a record cut short
    assert (left_behind(state), anything_left(state)) == (False, True)
    (state / "pending" / ".archive-123.json.tmp").unlink()
    (state / "tmp").mkdir()
    (state / "tmp" / "123.1.tmp").write_text("half")  # a killed write's temp
    assert (left_behind(state), anything_left(state)) == (False, True)
    (state / "tmp" / "123.1.tmp").unlink()
    (state / ".curate-staging-123").mkdir()
    assert (left_behind(state), anything_left(state)) == (True, True)
    (state / ".curate-staging-123").rmdir()
    (state / "pending" / "restore-123.json").write_text("{}")
    assert (left_behind(state), anything_left(state)) == (True, True)


def test_recovery_asks_the_same_question(project: Project) -> None:
    assert recovery.left_behind(project) is False
    (project.state / "pending").mkdir(parents=True, exist_ok=True)
    (project.state / "pending" / "dream-1.json").write_text("{}")
    assert recovery.left_behind(project) is True


def test_a_cold_search_sweeps_a_dead_writers_temps(project: Project) -> None:
    dead = _dead_pid()
    (project.state / "tmp").mkdir(parents=True, exist_ok=True)
    (project.state / "tmp" / f"{dead}.1.tmp").write_text("half")
    (project.state / "pending").mkdir(parents=True, exist_ok=True)
    (project.state / "pending" / f".archive-{dead}.json.tmp").write_text("{")
    result = brv_process("search", "anything", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert list((project.state / "tmp").iterdir()) == []
    assert list((project.state / "pending").iterdir()) == []
