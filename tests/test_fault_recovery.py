"""After a kill, the next command (or the 'brv vc recover' it names) finishes or undoes the step."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import vc_helpers
from vc_helpers import Team, dead_pid

from brv_vc.tree.project import Project
from tests.conftest import snapshot

team = vc_helpers.team


def _intent(project: Project, kind: str, data: dict[str, object]) -> Path:
    folder = project.state / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    pid = dead_pid()
    path = folder / f"{kind}-{pid}.json"
    path.write_text(json.dumps({**data, "kind": kind, "pid": pid}))
    return path


def _lock(team: Team) -> Path:
    lock = team.bob.tree / ".git/index.lock"
    lock.write_text("")
    return lock


def test_stale_index_lock_names_the_one_recovery_command(team: Team) -> None:
    team.alice.write("auth/jwt/new.md", "New", facts=["x"])
    team.alice.sync("new")
    lock = _lock(team)
    for args in (("vc", "pull"), ("vc", "merge", "--continue"), ("vc", "merge", "--abort"),
                 ("vc", "merge", "main")):
        result = team.bob.fails(*args)
        assert "an earlier git command in this repository was interrupted" in result.stderr
        assert "index.lock was left by a git process that no longer runs" in result.stderr
        assert "hint: run 'brv vc recover'" in result.stderr
    recovered = team.bob.ok("vc", "recover", "--json").json()
    assert recovered["lock_removed"] == str(lock)
    assert not lock.exists()
    team.bob.ok("vc", "pull")
    assert (team.bob.tree / "auth/jwt/new.md").is_file()
    assert "nothing to recover" in team.bob.ok("vc", "recover").stdout


def test_a_lock_held_by_a_live_git_is_never_removed(team: Team) -> None:
    lock = _lock(team)
    holder = subprocess.Popen(["git", "cat-file", "--batch"], cwd=team.bob.tree,
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
    try:
        result = team.bob.fails("vc", "recover")
        assert f"another git process (pid {holder.pid}) is working in this repository" in (
            result.stderr)
        assert "wait for it to finish" in result.stderr
        assert lock.exists()
        assert "another git process" in team.bob.fails("vc", "pull").stderr
    finally:
        holder.kill()
        holder.wait()
    team.bob.ok("vc", "recover")
    assert not lock.exists()


def test_archives_catch_up_after_a_pull_that_stopped_before_them(team: Team) -> None:
    team.alice.ok("archive", "auth/jwt/token_rotation.md")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "archive rotation")
    team.alice.ok("vc", "push")
    # git merged, then brv was killed before the post-change step (no hook ran either)
    team.bob.git("-c", "core.hooksPath=/dev/null", "pull", "-q", "--no-rebase")
    stub = team.bob.tree / "_archived/auth/jwt/token_rotation.stub.md"
    assert not stub.exists()
    team.bob.ok("vc", "pull")
    assert stub.is_file()
    assert (team.bob.tree / "_archived/auth/jwt/token_rotation.full.md").is_file()
    before = snapshot(team.bob.root)
    team.bob.ok("vc", "recover")
    team.bob.ok("vc", "pull")
    assert snapshot(team.bob.root) == before  # idempotent: nothing rewritten


def test_temp_files_of_dead_processes_are_swept(project: Project, brv) -> None:
    dead = dead_pid()
    tmp = project.state / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / f"{dead}.1.tmp").write_text("half")
    (project.state / f".curate-staging-{dead}").mkdir()
    (project.state / f".curate-staging-{dead}" / "0.tmp").write_text("half")
    live = subprocess.Popen(["sleep", "30"])
    try:
        (tmp / f"{live.pid}.1.tmp").write_text("in use")
        assert brv("tree", cwd=project.root).exit_code == 0
        assert sorted(p.name for p in tmp.iterdir()) == [f"{live.pid}.1.tmp"]
        assert not (project.state / f".curate-staging-{dead}").exists()
    finally:
        live.kill()
        live.wait()
    assert brv("tree", cwd=project.root).exit_code == 0
    assert list(tmp.iterdir()) == []


def test_tree_writes_leave_no_temp_file_in_the_tree(project: Project, brv) -> None:
    assert brv("curate", "add", "api/auth", "--title", "T", "--content", "x",
               cwd=project.root).exit_code == 0
    assert brv("summarize", cwd=project.root).exit_code == 0
    hidden = [p for p in project.tree.rglob(".*") if p.name not in (".gitignore",
                                                                     ".gitattributes")]
    assert hidden == []


def _seeded(project: Project, brv) -> bytes:
    assert brv("curate", "add", "api/auth", "--title", "Token rotation", "--content", "x",
               cwd=project.root).exit_code == 0
    return (project.tree / "api/auth/token_rotation.md").read_bytes()


def test_archive_cut_after_the_full_copy_is_finished(project: Project, brv) -> None:
    data = _seeded(project, brv)
    full = project.tree / "_archived/api/auth/token_rotation.full.md"
    full.parent.mkdir(parents=True)
    full.write_bytes(data)
    _intent(project, "archive", {"path": "api/auth/token_rotation.md"})
    result = brv("tree", cwd=project.root)
    assert "finished the interrupted archive of api/auth/token_rotation.md" in result.stderr
    assert not (project.tree / "api/auth/token_rotation.md").exists()
    assert (project.tree / "_archived/api/auth/token_rotation.stub.md").is_file()
    assert full.read_bytes() == data
    assert list((project.state / "pending").iterdir()) == []


def test_archive_cut_before_the_full_copy_is_undone(project: Project, brv) -> None:
    data = _seeded(project, brv)
    stub = project.tree / "_archived/api/auth/token_rotation.stub.md"
    stub.parent.mkdir(parents=True)
    stub.write_text("---\ntype: archive_stub\n---\n")  # cannot happen in order; undone anyway
    _intent(project, "archive", {"path": "api/auth/token_rotation.md"})
    assert brv("tree", cwd=project.root).exit_code == 0
    assert (project.tree / "api/auth/token_rotation.md").read_bytes() == data
    assert not stub.exists()


def test_restore_cut_after_the_entry_is_back_is_finished(project: Project, brv) -> None:
    data = _seeded(project, brv)
    assert brv("archive", "api/auth/token_rotation.md", cwd=project.root).exit_code == 0
    (project.tree / "api/auth/token_rotation.md").write_bytes(data)
    _intent(project, "restore", {"path": "api/auth/token_rotation.md"})
    result = brv("search", "rotation", "--json", cwd=project.root)
    assert result.exit_code == 0
    assert not (project.tree / "_archived/api/auth/token_rotation.full.md").exists()
    assert not (project.tree / "_archived/api/auth/token_rotation.stub.md").exists()
    found = [r["path"] for r in result.json()["results"]]
    assert "api/auth/token_rotation.md" in found
    assert not any(p.startswith("_archived/") for p in found)
    assert brv("restore", "api/auth/token_rotation.md", cwd=project.root).exit_code == 1
    assert brv("archive", "api/auth/token_rotation.md", cwd=project.root).exit_code == 0


def _holder(project: Project) -> subprocess.Popen[str]:
    """Another process holding the project's write lock (a live writer)."""
    code = ("import fcntl, os, sys, time\n"
            f"fd = os.open({str(project.state / 'write.lock')!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); time.sleep(60)\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline() == "held\n"
    return proc


def test_a_live_writers_intent_is_left_alone_and_settled_once_it_dies(project: Project,
                                                                     brv) -> None:
    _seeded(project, brv)
    folder = project.state / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / "archive-1.json"
    record.write_text(json.dumps({"kind": "archive", "pid": 1,
                                  "path": "api/auth/token_rotation.md"}))
    holder = _holder(project)
    try:
        assert brv("tree", cwd=project.root).exit_code == 0
        assert record.exists()  # the writer holding the lock may still be working
    finally:
        holder.kill()
        holder.wait()
    assert brv("tree", cwd=project.root).exit_code == 0
    assert not record.exists()


def test_a_reused_pid_does_not_hide_an_abandoned_intent(project: Project, brv) -> None:
    """The record names a live process (this one), but nobody holds the write lock."""
    _seeded(project, brv)
    entry = project.tree / "api/auth/token_rotation.md"
    full = project.tree / "_archived/api/auth/token_rotation.full.md"
    full.parent.mkdir(parents=True)
    full.write_bytes(entry.read_bytes())  # killed after the full copy was written
    folder = project.state / "pending"
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / f"archive-{os.getpid()}.json"
    record.write_text(json.dumps({"kind": "archive", "pid": os.getpid(),
                                  "path": "api/auth/token_rotation.md"}))
    result = brv("search", "rotation", cwd=project.root)
    assert "finished the interrupted archive of api/auth/token_rotation.md" in result.stderr
    assert not record.exists()
    assert not entry.exists()
    assert full.exists()


def test_curate_batch_killed_before_recording_is_logged_by_the_next_command(
        project: Project, brv) -> None:
    import hashlib
    import sqlite3

    _seeded(project, brv)
    applied = project.tree / "api/auth/applied.md"
    applied.write_text('---\ntitle: "Applied"\n---\nbody\n')
    sha = hashlib.sha1(applied.read_bytes()).hexdigest()
    pid = dead_pid()
    ops = [
        {"type": "ADD", "path": "api/auth", "reason": "r1", "message": "added api/auth/applied.md",
         "expect": ["api/auth/applied.md", sha], "sidecar": [["added", "api/auth/applied.md"]]},
        {"type": "ADD", "path": "api/auth", "reason": "r2", "message": "added api/auth/never.md",
         "expect": ["api/auth/never.md", "0" * 40], "sidecar": [["added", "api/auth/never.md"]]},
        {"type": "DELETE", "path": "api/auth/token_rotation.md", "reason": "r3",
         "message": "deleted", "expect": ["api/auth/token_rotation.md", None], "sidecar": []},
        {"type": "DELETE", "path": "api/auth/gone.md", "reason": "r4",
         "message": "deleted", "expect": ["api/auth/gone.md", None], "sidecar": []},
    ]
    conn = sqlite3.connect(project.state / "brv.db")
    conn.execute("CREATE TABLE IF NOT EXISTS curate_journal (pid INTEGER PRIMARY KEY, "
                 "time REAL NOT NULL, ops TEXT NOT NULL)")
    conn.execute("INSERT INTO curate_journal VALUES (?, ?, ?)", (pid, 1.7e9, json.dumps(ops)))
    conn.commit()
    conn.close()
    (project.state / "pending").mkdir(exist_ok=True)
    (project.state / "pending" / f"curate-{pid}.json").write_text(json.dumps({"pid": pid}))
    result = brv("tree", cwd=project.root)
    assert "logged 4 operation(s) of an interrupted curate batch" in result.stderr
    conn = sqlite3.connect(project.state / "brv.db")
    rows = conn.execute("SELECT reason, status FROM curate_log WHERE reason LIKE 'r_'"
                        " ORDER BY reason").fetchall()
    left = conn.execute("SELECT count(*) FROM curate_journal").fetchone()[0]
    scored = conn.execute("SELECT path FROM signals WHERE path = 'api/auth/applied.md'"
                          ).fetchall()
    conn.close()
    assert rows == [("r1", "success"), ("r2", "failed"), ("r3", "failed"), ("r4", "success")]
    assert left == 0
    assert scored == [("api/auth/applied.md",)]
    assert list((project.state / "pending").iterdir()) == []


def test_pull_killed_mid_checkout_is_undone_by_recover(team: Team) -> None:
    team.alice.write("auth/jwt/new.md", "New", facts=["x"])
    team.alice.edit("auth/jwt/token_rotation.md", summary="changed by alice")
    team.alice.sync("two changes")
    bob = team.bob
    old = bob.git("rev-parse", "HEAD").strip()
    bob.git("fetch", "-q")
    target = bob.git("rev-parse", "FETCH_HEAD").strip()
    # what a kill during git's checkout leaves: one incoming file written, one not, the lock
    (bob.tree / "auth/jwt/new.md").write_bytes(bob.git("show", f"{target}:auth/jwt/new.md"
                                                       ).encode())
    project = Project(bob.root)
    _intent(project, "pull", {"old": old, "target": target,
                              "paths": ["auth/jwt/new.md", "auth/jwt/token_rotation.md"]})
    _lock(team)
    assert "hint: run 'brv vc recover'" in bob.fails("vc", "pull").stderr
    recovered = bob.ok("vc", "recover", "--json").json()
    assert recovered["merge"] == "aborted"
    assert bob.git("status", "--porcelain") == ""
    assert not (bob.tree / "auth/jwt/new.md").exists()
    bob.ok("vc", "pull")
    assert bob.git("rev-parse", "HEAD").strip() == target
    assert bob.read("auth/jwt/token_rotation.md").summary == "changed by alice"
