"""pre-commit tells commit-msg what to add, so a commit without archives starts no vc services."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from hooks_support import entry_bytes, git, write

from brv_vc.services.vc.hook_env import TRAILERS_SUFFIX, note_trailers, nothing_to_trail
from brv_vc.tree.project import Project
from brv_vc.vc.hooks_install import render

ROT = "auth/jwt/archive_me.md"



def _notes(tree: Path) -> list[Path]:
    return sorted((tree / ".git").glob(f"*{TRAILERS_SUFFIX}"))


def test_a_plain_commit_of_an_archived_deletion_still_carries_its_trailer(
        tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, ROT, entry_bytes("Archive me"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "rotation", cwd=tree)
    archived = tree / "_archived/auth/jwt/archive_me.full.md"
    archived.parent.mkdir(parents=True)
    archived.write_bytes((tree / ROT).read_bytes())
    git("rm", "-q", ROT, cwd=tree)
    git("commit", "-q", "-m", "archive rotation", cwd=tree)
    assert f"Brv-Archived: {ROT}" in git("log", "-1", "--format=%B", cwd=tree).stdout
    assert _notes(tree) == []  # commit-msg used the note and removed it


def test_a_commit_without_archives_gets_no_trailer_and_leaves_no_note(
        tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, ROT, entry_bytes("Archive me"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "plain", cwd=tree)
    assert "Brv-Archived" not in git("log", "-1", "--format=%B", cwd=tree).stdout
    assert _notes(tree) == []


def test_a_note_for_another_index_state_is_not_believed(tmp_path: Path) -> None:
    index = tmp_path / "index"
    index.write_bytes(b"one")
    note_trailers(str(index), [])
    index.write_bytes(b"staged more")  # the index changed after pre-commit wrote the note
    assert not nothing_to_trail(str(index))
    os.utime(index, ns=(1, 1))  # from here on the index is older than every note
    note_trailers(str(index), [ROT])  # archives to name: commit-msg does its work
    assert not nothing_to_trail(str(index))
    note_trailers(str(index), [])
    assert nothing_to_trail(str(index))
    assert not nothing_to_trail(str(index))  # used once
    assert not nothing_to_trail(None)


def test_python_and_the_shim_follow_one_rule(tmp_path: Path) -> None:
    """A note is believed while it is newer than the index and names no path, by both."""
    index = tmp_path / "index"
    index.write_bytes(b"staged")
    note = Path(f"{index}{TRAILERS_SUFFIX}")
    for index_ns, archived, believed in ((1, [], True), (2**62, [], False),
                                         (1, [ROT], False)):
        for judge in ("python", "shim"):
            note_trailers(str(index), archived)
            os.utime(index, ns=(index_ns, index_ns))
            if judge == "python":
                assert nothing_to_trail(str(index)) is believed
            else:
                asked = "cannot find brv" in _run_shim(tmp_path, index).stderr
                assert asked is not believed
            note.unlink(missing_ok=True)


def _run_shim(tmp_path: Path, index: Path) -> subprocess.CompletedProcess[str]:
    """The commit-msg shim with no brv to start (no recorded Python, none on PATH)."""
    shim = tmp_path / "commit-msg"
    shim.write_bytes(render("commit-msg", str(tmp_path / "no-python")))
    shim.chmod(0o755)
    (tmp_path / ".brv/context-tree").mkdir(parents=True, exist_ok=True)  # a project's top
    message = tmp_path / "MSG"
    message.write_text("subject\n", encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "GIT_INDEX_FILE": str(index)}
    return subprocess.run([str(shim), str(message)], cwd=tmp_path, env=env, text=True,
                          capture_output=True, check=False, timeout=60)


def test_the_commit_msg_shim_believes_a_fresh_note_without_starting_python(
        tmp_path: Path) -> None:
    index = tmp_path / "index"
    index.write_bytes(b"staged")
    note = Path(f"{index}{TRAILERS_SUFFIX}")
    note_trailers(str(index), [])
    os.utime(index, ns=(1, 1))  # the note is newer than the index: nothing staged since
    done = _run_shim(tmp_path, index)
    assert (done.returncode, done.stderr) == (0, "")  # no "cannot find brv": no Python asked
    assert not note.exists()  # used once
    for archived in ([ROT], None):  # archives to name, or an index changed since the note
        note_trailers(str(index), archived or [])
        os.utime(index, ns=(1, 1) if archived else (2**62, 2**62))
        done = _run_shim(tmp_path, index)
        assert "cannot find brv" in done.stderr  # the Python part had to decide
    note.unlink()
    assert "cannot find brv" in _run_shim(tmp_path, index).stderr  # no note at all


def test_after_brv_vc_commit_the_shims_read_the_index_once(tmp_path: Path,
                                                           tree_repo: Project) -> None:
    """pre-commit's shim checks the tree 'brv vc commit' validated; commit-msg trusts its note."""
    tree = tree_repo.tree
    hooks = tree / ".git" / "hooks"
    for name in ("pre-commit", "commit-msg"):
        (hooks / name).write_bytes(render(name, str(tmp_path / "no-python")))
        (hooks / name).chmod(0o755)
    calls = tmp_path / "git-trace"  # every git process, the hooks' included
    write(tree, ROT, entry_bytes("Archive me"))
    git("add", "-A", cwd=tree)
    checked = git("write-tree", cwd=tree).stdout.strip()
    env = {**os.environ, "PATH": "/usr/bin:/bin", "BRV_COMMIT_CHECKED": checked,
           "GIT_TRACE": str(calls)}
    done = subprocess.run(["git", "commit", "-q", "-m", "checked"], cwd=tree, env=env,
                          text=True, capture_output=True, check=False, timeout=60)
    assert done.returncode == 0
    assert "cannot find brv" not in done.stderr  # no Python asked
    traced = calls.read_text(encoding="utf-8")
    assert traced.count("built-in: git write-tree") == 1  # pre-commit's; commit-msg read the note
    assert _notes(tree) == []
