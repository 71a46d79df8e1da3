"""What killed processes leave is seen by one check (tree.leftovers), the click-free paths' included."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import brv_process
from vc_helpers import dead_pid

from brv_vc.services import recovery
from brv_vc.tree.leftovers import anything_left, left_behind
from brv_vc.tree.project import Project


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
    (state / "pending" / "restore-123.json").unlink()
    (state / "notes.tmp").write_text("no pid in its name: no one's temp file")
    assert (left_behind(state), anything_left(state)) == (False, False)
    (state / "vectors-ab12.npz.123.tmp").write_text("half")  # written beside a state file
    assert (left_behind(state), anything_left(state)) == (False, True)


def test_recovery_asks_the_same_question(project: Project) -> None:
    assert recovery.left_behind(project) is False
    (project.state / "pending").mkdir(parents=True, exist_ok=True)
    (project.state / "pending" / "dream-1.json").write_text("{}")
    assert recovery.left_behind(project) is True


def test_a_cold_search_sweeps_a_dead_writers_temps(project: Project) -> None:
    dead = dead_pid()
    (project.state / "tmp").mkdir(parents=True, exist_ok=True)
    (project.state / "tmp" / f"{dead}.1.tmp").write_text("half")
    (project.state / "pending").mkdir(parents=True, exist_ok=True)
    (project.state / "pending" / f".archive-{dead}.json.tmp").write_text("{")
    # beside a state file: the matrix's of stop 20, an atomic write's, the code history's
    beside = [project.state / name for name in (
        f"vectors-ab12.npz.{dead}.tmp", f".hooks.json.{dead}.tmp", f"code-history.bin.{dead}.tmp")]
    kept = [project.state / name for name in (
        f"vectors-ab12.npz.{os.getpid()}.tmp",  # a live writer's
        "notes.tmp", "vectors-ab12.npz.tmp")]  # no pid in the name: no one's temp file
    for path in beside + kept:
        path.write_text("half")
    result = brv_process("search", "anything", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert list((project.state / "tmp").iterdir()) == []
    assert list((project.state / "pending").iterdir()) == []
    assert [p.name for p in beside + kept if p.exists()] == [p.name for p in kept]


def test_a_stray_name_no_sweep_would_remove_is_not_work_left(tmp_path: Path) -> None:
    """What ``anything_left`` sees is what the sweep removes (one rule, tree/leftovers.pid_in):
    a name without a pid in ``tmp/`` or ``pending/`` would make every command settle forever."""
    state = tmp_path / "state"
    (state / "tmp").mkdir(parents=True)
    (state / "pending").mkdir()
    (state / "tmp" / "notes.txt").write_text("x")
    (state / "pending" / "a.tmp").write_text("x")
    assert not anything_left(state)
    (state / "pending" / ".curate-4242.json.tmp").write_text("x")
    assert anything_left(state)
