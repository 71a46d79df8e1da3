"""dream-state.json: every curate counts once, concurrent curates lose no increment; logs."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO
from dream_support import NOW, add

from brv_vc.services import dream
from brv_vc.tree import dreamstate


def test_every_applied_curate_counts_once_and_failures_do_not(project, brv):
    add(project, "api/auth", "One", "first")
    add(project, "api/auth", "Two", "second")
    failed = brv("curate", "update", "api/auth/missing.md", "--content", "x", cwd=project.root)
    assert failed.exit_code == 1
    assert dreamstate.read_state(project)["curationsSinceDream"] == 2


def test_state_lives_under_state_which_ignores_itself(project):
    add(project, "api/auth", "One", "first")
    assert (project.state / "dream-state.json").is_file()
    assert (project.state / ".gitignore").read_text().splitlines()[-1] == "*"


def test_four_concurrent_curating_processes_lose_no_increment(project):
    script = (
        "import sys\n"
        "from datetime import UTC, datetime\n"
        "from brv_vc.services import curate\n"
        "from brv_vc.tree.project import Project\n"
        "from pathlib import Path\np = Project(Path(sys.argv[1])); who = sys.argv[2]\n"
        "for i in range(10):\n"
        "    op = {'type': 'ADD', 'path': f'team/w{who}', 'title': f'Note {i}',\n"
        "          'content': f'note {i} of worker {who}', 'reason': 'load'}\n"
        "    assert curate.run_batch(p, [op], datetime(2025, 3, 1, tzinfo=UTC)).ok\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(project.root), str(w)],
                              cwd=REPO) for w in range(4)]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    assert dreamstate.read_state(project)["curationsSinceDream"] == 40


def test_dream_log_is_written_and_listed(project, brv):
    for i in range(3):
        add(project, "notes/misc", f"Note {i}", f"plain note {i}")
    result = dream.dream(project, NOW)
    log_file = project.state / "dream-log" / f"{result.id}.json"
    log = json.loads(log_file.read_text())
    assert log["status"] == "completed"
    assert log["summary"]["consolidated"] == result.summary["consolidated"]
    listed = brv("dream", "--log", "--json", cwd=project.root).json()
    assert [entry["id"] for entry in listed["logs"]] == [result.id]
    text = brv("dream", "--log", result.id, cwd=project.root).stdout
    assert text.splitlines()[1] == result.line
    missing = brv("dream", "--log", "drm-1", cwd=project.root)
    assert missing.exit_code == 1
    assert "no dream log drm-1" in missing.stderr


def test_a_killed_dream_leaves_a_partial_log_that_the_next_dream_marks(project):
    add(project, "notes/misc", "Note", "plain")
    folder = project.state / "dream-log"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "drm-5.json").write_text(json.dumps({
        "id": "drm-5", "status": "processing", "operations": [
            {"operation": "prune", "action": "KEEP", "status": "applied", "changes": []}]}))
    dream.dream(project, NOW, force=True)
    assert json.loads((folder / "drm-5.json").read_text())["status"] == "partial"


def test_the_next_dream_folds_a_killed_dreams_journal_into_its_log(project, brv):
    add(project, "notes/misc", "Note", "plain")
    folder = project.state / "dream-log"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "drm-5.json").write_text(json.dumps(
        {"id": "drm-5", "status": "processing", "operations": [], "journal": True}))
    kept = {"operation": "prune", "action": "KEEP", "status": "applied", "changes": []}
    (folder / "drm-5.ops.jsonl").write_text(json.dumps(kept) + '\n{"operation": "pru')
    listed = brv("dream", "--log", "--json", cwd=project.root).json()
    assert listed["logs"][0]["operationCount"] == 1  # a running dream's log shows its work
    dream.dream(project, NOW, force=True)
    log = json.loads((folder / "drm-5.json").read_text())
    assert log["status"] == "partial"
    assert log["operations"] == [kept]
    assert "journal" not in log
    assert not (folder / "drm-5.ops.jsonl").exists()
