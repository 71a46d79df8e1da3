"""A dream's budget, Ctrl-C once (graceful) and twice (130), --detach and --cancel."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time

from conftest import REPO, brv_process
from dream_support import NOW, add, age
from llm_server import ChatServer, approve_provider, reply

from brv_vc.errors import BrvError
from brv_vc.services import dream
from brv_vc.services.dream import prune
from brv_vc.tree import dreamstate
from brv_vc.tree.store import entry_paths, read_entry


def _stale(project, count=12):
    for i in range(count):
        rel = add(project, f"notes/old{i % 3}", f"Forgotten draft {i}",
                  f"Draft {i} about subject{i} and thing{i * 7}.")
        age(project, rel, 200)


def test_budget_overrun_keeps_finished_work_as_partial(project, monkeypatch):
    _stale(project, 4)
    # nothing changed since the last dream: consolidate finds nothing, prune has 4 to do
    dreamstate.update_state(project, lambda s: s.update(lastDreamWall=4102444800.0))
    clock = [0.0]
    decide = prune.decide

    def decided(*args, **named):
        clock[0] = 10.0  # the budget runs out once prune has decided
        return decide(*args, **named)

    monkeypatch.setattr(prune, "decide", decided)
    result = dream.dream(project, NOW, force=True, budget=1.0, clock=lambda: clock[0])
    assert result.status == "partial"
    assert result.stopped == "budget"
    assert len(result.operations) == 1  # checked after each operation
    log = json.loads((project.state / "dream-log" / f"{result.id}.json").read_text())
    assert log["status"] == "partial"
    assert log["operations"][0]["status"] in ("applied", "skipped")


def test_a_budget_spent_before_the_detectors_ends_them_with_nothing_done(project):
    _stale(project, 4)
    dreamstate.update_state(project, lambda s: s.update(lastDreamWall=4102444800.0))
    result = dream.dream(project, NOW, force=True, budget=1e-9)
    assert result.stopped == "budget"
    assert result.operations == ()  # synthesize and prune read the whole tree: not begun
    assert result.status == "error"
    assert all(read_entry(project, p).title.startswith("Forgotten") for p in entry_paths(project))


def test_budget_from_the_command_line(project, brv):
    _stale(project, 3)
    dreamstate.update_state(project, lambda s: s.update(lastDreamWall=4102444800.0))
    out = brv("dream", "--force", "--budget", "0.000001", cwd=project.root)
    assert out.exit_code == 0
    assert "stopped because the time budget ran out; finished work kept" in out.stdout


def _start(project, *args):
    env = {**os.environ, "PYTHONPATH": str(REPO), "BRV_NOW": "2025-03-01T10:00:00Z"}
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "dream", "--force", *args],
                            cwd=project.root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _wait_for(predicate, timeout=60.0):
    end = time.time() + timeout
    while time.time() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def _logs(project):
    folder = project.state / "dream-log"
    return sorted(folder.glob("drm-*.json")) if folder.exists() else []


def _all_entries_parse(project):
    for rel in entry_paths(project):
        try:
            read_entry(project, rel)
        except BrvError as error:  # pragma: no cover - the assertion below reports it
            raise AssertionError(f"{rel} is half-written: {error.message}") from error


RELEASE = threading.Event()


def _slow_provider(project):
    """A provider that answers only once RELEASE is set (or after 20 s): the dream is
    surely inside its first provider call when the test signals it."""
    RELEASE.clear()

    def handler(request):
        RELEASE.wait(20)
        return reply("[]")

    server = ChatServer(handler)
    with project.config_path.open("a") as out:
        out.write(f"llm:\n  base_url: {server.base_url}\n  model: m\n")
    approve_provider(project)
    return server


def test_ctrl_c_once_stops_gracefully(project):
    _stale(project, 20)
    with _slow_provider(project) as server:
        proc = _start(project)
        assert _wait_for(lambda: server.requests)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.2)
        RELEASE.set()
        _graceful(project, proc)


def _graceful(project, proc):
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "Cancelling task... (Ctrl-C again to force exit)" in err
    assert "stopped because it was cancelled" in out
    log = json.loads(_logs(project)[0].read_text())
    assert log["status"] in ("partial", "error")
    assert log["stopped"] == "cancelled"
    assert not (project.state / "dream.lock").exists()
    _all_entries_parse(project)


def test_ctrl_c_twice_exits_130_and_the_next_dream_recovers(project):
    _stale(project, 20)
    with _slow_provider(project) as server:
        proc = _start(project)
        assert _wait_for(lambda: server.requests)
        proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
        RELEASE.set()
    assert proc.returncode == 130, err
    _all_entries_parse(project)
    assert dream.dream(project, NOW, force=True).status in ("completed", "partial")


def test_detach_prints_an_id_and_cancel_stops_it(project):
    _stale(project, 20)
    with _slow_provider(project) as server:
        _detach_and_cancel(project, server)


def _detach_and_cancel(project, server):
    started = brv_process("dream", "--detach", "--force", "--json", cwd=project.root,
                          env={"BRV_NOW": "2025-03-01T10:00:00Z"})
    assert started.exit_code == 0, started.stderr
    dream_id = started.json()["id"]
    log_file = project.state / "dream-log" / f"{dream_id}.json"
    assert _wait_for(lambda: server.requests)
    cancelled = brv_process("dream", "--cancel", dream_id, cwd=project.root)
    assert cancelled.exit_code == 0, cancelled.stderr
    RELEASE.set()
    assert _wait_for(lambda: json.loads(log_file.read_text())["status"] != "processing")
    assert json.loads(log_file.read_text())["stopped"] == "cancelled"
    unknown = brv_process("dream", "--cancel", "drm-1", cwd=project.root)
    assert unknown.exit_code == 1
    assert "no running dream with id drm-1" in unknown.stderr
