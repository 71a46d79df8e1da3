"""brv dream's four gates in order (time, activity, queue, lock), --force, and --json figures."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import timedelta

from dream_support import NOW, add

from brv_vc.services import dream
from brv_vc.summary import queue as summary_queue
from brv_vc.tree import dreamstate
from brv_vc.tree.statedb import open_state

STAMP = "2025-03-01T10:00:00Z"


def _three(project):
    for i in range(3):
        add(project, "notes/misc", f"Note {i}", f"Plain note number {i} about topic {i}.")


def test_activity_gate_counts_curations(project, brv):
    add(project, "notes/misc", "One", "First note.")
    result = brv("dream", cwd=project.root)
    assert result.exit_code == 0
    assert result.stdout.strip() == (
        "Dream skipped: Not enough activity (1 < 3 curations since the last dream)")
    data = brv("dream", "--json", cwd=project.root).json()
    assert data["status"] == "skipped"
    assert data["gate"]["gate"] == "activity"
    assert data["gate"]["figures"] == {"curationsSinceDream": 1, "minimum": 3}


def test_time_gate_says_too_recent(project, brv, monkeypatch):
    _three(project)
    dreamstate.update_state(project, lambda s: s.update(lastDreamAt="2025-03-01T07:30:00Z"))
    monkeypatch.setenv("BRV_NOW", STAMP)
    result = brv("dream", cwd=project.root)
    assert result.exit_code == 0
    assert result.stdout.strip() == "Dream skipped: Too recent (2.5h < 12h)"


def test_queue_gate_waits_for_summary_work(project):
    _three(project)
    conn = open_state(project)
    try:
        summary_queue.enqueue(conn, ["notes/misc/note_0.md"])
    finally:
        conn.close()
    result = dream.dream(project, NOW)
    assert result.status == "skipped"
    assert result.gate.gate == "queue"
    assert result.gate.reason.startswith("Queue not empty (1 summary task(s) waiting")


def test_gates_are_checked_in_order_and_force_skips_three(project):
    dreamstate.update_state(project, lambda s: s.update(lastDreamAt=STAMP))
    result = dream.dream(project, NOW + timedelta(hours=1))
    assert [g.gate for g in result.gates] == ["time"]  # stops at the first failing gate
    forced = dream.dream(project, NOW + timedelta(hours=1), force=True)
    assert forced.status == "completed"
    assert [g.gate for g in forced.gates] == ["lock"]


def test_all_gates_pass_then_the_counter_resets(project):
    _three(project)
    result = dream.dream(project, NOW)
    assert result.status == "completed"
    assert [g.gate for g in result.gates] == ["time", "activity", "queue", "lock"]
    state = dreamstate.read_state(project)
    assert state["curationsSinceDream"] == 0
    assert state["totalDreams"] == 1
    assert state["lastDreamAt"] == STAMP
    again = dream.dream(project, NOW + timedelta(hours=13))
    assert again.gate.gate == "activity"  # time passed, activity did not


def _sleeper():
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])


def test_a_live_lock_blocks_even_force(project, brv):
    holder = _sleeper()
    try:
        (project.state / "dream.lock").write_text(json.dumps(
            {"pid": holder.pid, "dreamId": "drm-1", "started": NOW.timestamp()}))
        result = dream.dream(project, NOW + timedelta(minutes=5), force=True)
        assert result.status == "skipped"
        assert result.gate.gate == "lock"
        assert result.gate.reason == f"Another dream is running (pid {holder.pid}, drm-1)"
        assert (project.state / "dream.lock").exists()
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_older_than_30_minutes_is_reclaimed(project):
    holder = _sleeper()
    try:
        (project.state / "dream.lock").write_text(json.dumps(
            {"pid": holder.pid, "dreamId": "drm-1", "started": NOW.timestamp()}))
        result = dream.dream(project, NOW + timedelta(minutes=31), force=True)
        assert result.status == "completed"
        assert not (project.state / "dream.lock").exists()  # released after the dream
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_whose_process_is_gone_is_reclaimed(project):
    gone = _sleeper()
    gone.kill()
    gone.wait()
    time.sleep(0.05)
    (project.state / "dream.lock").write_text(json.dumps(
        {"pid": gone.pid, "dreamId": "drm-1", "started": NOW.timestamp()}))
    assert dream.dream(project, NOW, force=True).status == "completed"
