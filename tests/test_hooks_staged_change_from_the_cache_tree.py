"""The staged change a hook lists comes from the index's cache-tree, the same as git diff --cached."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hooks_support import entry_bytes, git, git_env, in_project, log_lines, write

from brv_vc.vc import git as vcgit
from brv_vc.vc.git.cache_tree import committed_tree

ENTRY = ".brv/context-tree/auth/jwt/sessions.md"


def _staged_everything(root: Path) -> None:
    """A change of every kind: added, modified, deleted, renamed, mode and type changes."""
    write(root, "src/new.py", "new\n")
    write(root, "src/app.py", "print('changed')\n")
    write(root, "src/moved.txt", "a file long enough to be found again after a rename\n" * 4)
    write(root, "src/gone.txt", "bye\n")
    write(root, "run.sh", "#!/bin/sh\n")
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "more", cwd=root)
    (root / "lib").mkdir()
    git("mv", "src/moved.txt", "lib/moved.txt", cwd=root)
    git("rm", "-q", "src/gone.txt", cwd=root)
    (root / "run.sh").chmod(0o755)
    (root / "src/new.py").unlink()
    os.symlink("app.py", root / "src/new.py")
    write(root, ENTRY, entry_bytes("Sessions"))
    git("add", "-A", cwd=root)


def test_the_cache_tree_gives_the_rows_of_diff_cached(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    _staged_everything(root)
    index = str(root / ".git" / "index")
    assert committed_tree(index) is None  # 'git add' left the cache-tree invalidated
    tree = git("write-tree", cwd=root).stdout.strip()  # what git commit does before the hook
    assert committed_tree(index) == tree
    moves = vcgit.staged_moves(root, index)
    assert sorted(row[:2] for row in moves) == [
        ("A", ENTRY), ("D", "src/gone.txt"), ("M", "run.sh"), ("R", "lib/moved.txt"),
        ("T", "src/new.py")]  # run.sh's mode; src/new.py a link now
    assert vcgit.staged_entries(root, index) == vcgit.staged_entries(root, None)
    assert vcgit.staged_entries(root, index, ".brv") == vcgit.staged_entries(root, None, ".brv")
    assert moves == _moves_from_the_index(root)


def _moves_from_the_index(root: Path) -> list[tuple[str, str, str, str, str]]:
    """staged_moves as git diff --cached lists them (the index read, no cache-tree)."""
    stale = root / ".git" / "index-copy"
    stale.write_bytes((root / ".git" / "index").read_bytes())
    blob = git("rev-parse", f":{ENTRY}", cwd=root).stdout.strip()
    git("update-index", "--cacheinfo", f"100644,{blob},{ENTRY}", cwd=root,
        env=git_env(GIT_INDEX_FILE=str(stale)))  # the same entry again: the root invalidated
    assert committed_tree(str(stale)) is None
    return vcgit.staged_moves(root, str(stale))


def test_a_first_commit_and_a_partial_commit_still_get_their_change(tmp_path: Path,
                                                                    brv) -> None:
    root = tmp_path / "fresh"
    root.mkdir()
    git("init", "-q", cwd=root)
    write(root, "a.txt", "a\n")
    git("add", "-A", cwd=root)
    git("write-tree", cwd=root)
    index = str(root / ".git" / "index")
    assert committed_tree(index) is not None
    assert vcgit.staged_files(root, index) == [("A", "a.txt", vcgit.staged_files(root)[0][2])]

    project = in_project(tmp_path)
    app = project.root
    assert brv("hooks", "install", cwd=app).exit_code == 0
    write(app, ENTRY, "---\ntitle: [unclosed\n---\n")
    write(app, "src/app.py", "print('partial')\n")
    git("add", "-A", cwd=app)
    partial = git("commit", "-q", "-m", "only code", "src/app.py", cwd=app, check=False)
    assert partial.returncode == 0, partial.stderr  # the bad entry is not in this commit
    assert ENTRY not in git("ls-tree", "-r", "--name-only", "HEAD", cwd=app).stdout
    refused = git("commit", "-q", "-m", "the entry", cwd=app, check=False)
    assert refused.returncode == 1
    assert f"  {ENTRY}: malformed YAML" in refused.stderr


def test_the_hook_diffs_two_trees_and_refreshes_what_they_change(tmp_path: Path,
                                                                  brv) -> None:
    project = in_project(tmp_path)
    root = project.root
    assert brv("hooks", "install", cwd=root).exit_code == 0
    write(root, ENTRY, entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    trace = tmp_path / "trace"
    done = git("commit", "-q", "-m", "entry", cwd=root, check=False,
               env=git_env(GIT_TRACE=str(trace)))
    assert (done.returncode, done.stderr) == (0, "")
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]
    ran = trace.read_text(encoding="utf-8")
    assert "diff --raw -z -M --no-abbrev --no-ext-diff HEAD " in ran
    assert "diff --cached" not in ran

    # a hook run by hand on an index 'git add' just wrote: the index is read, as before
    write(root, ENTRY, entry_bytes("Sessions", "Changed.\n"))
    git("add", "-A", cwd=root)
    env = git_env(GIT_INDEX_FILE=str(root / ".git" / "index"), GIT_TRACE=str(trace))
    by_hand = subprocess.run([sys.executable, "-m", "brv_vc", "hook-impl", "pre-commit"],
                             cwd=root, env=env, capture_output=True, text=True, timeout=120,
                             check=False)
    assert (by_hand.returncode, by_hand.stderr) == (0, "")
    assert "diff --cached --raw -z -M" in trace.read_text(encoding="utf-8")
