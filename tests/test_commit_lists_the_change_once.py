"""A commit lists its staged change once and still judges every file of it (issue 24)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from hooks_support import entry_bytes, git, in_project, standalone, write
from manager_support import git_env, ok, run

from brv_vc.vc import git as vcgit

CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def _brv(*args: str, cwd: Path):  # type: ignore[no-untyped-def]
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd)


def test_one_listing_with_renames_gives_the_rows_of_the_listing_without(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    write(root, "src/big.py", "".join(f"line {i}\n" for i in range(200)))
    write(project.tree, "auth/jwt/old_name.md", entry_bytes("Old name", "x\n" * 50))
    write(root, "src/gone.py", "bye\n")
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "more", cwd=root)
    git("mv", "src/big.py", "src/moved.py", cwd=root)  # a rename git detects
    git("mv", ".brv/context-tree/auth/jwt/old_name.md", ".brv/context-tree/auth/jwt/new.md",
        cwd=root)
    git("rm", "-q", "src/gone.py", cwd=root)
    write(root, "src/app.py", "print('changed')\n")
    os.symlink("app.py", root / "src/link.py")
    write(project.tree, "auth/jwt/added.md", entry_bytes("Added"))
    git("add", "-A", cwd=root)
    git("update-index", "--chmod=+x", "src/app.py", cwd=root)
    moves = vcgit.staged_moves(root)
    assert {(m[0], m[4]) for m in moves if m[0] == "R"} == {
        ("R", "src/big.py"), ("R", ".brv/context-tree/auth/jwt/old_name.md")}
    assert vcgit.unrenamed(moves) == vcgit.staged_entries(root)


def test_a_commit_of_a_hundred_entries_still_refuses_the_one_with_markers(
        tmp_path: Path) -> None:
    project = standalone(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    for i in range(100):
        write(project.tree, f"ops/batch/entry_{i:03}.md", entry_bytes(f"Entry {i}"))
    write(project.tree, "ops/batch/entry_042.md", CONFLICTED)
    ok(_brv("vc", "add", cwd=project.root))
    head = git("rev-parse", "HEAD", cwd=project.tree).stdout
    refused = _brv("vc", "commit", "-m", "batch", cwd=project.root)
    assert refused.returncode == 1
    assert "cannot commit: conflict markers remain in ops/batch/entry_042.md" in refused.stderr
    assert git("rev-parse", "HEAD", cwd=project.tree).stdout == head  # nothing committed
    write(project.tree, "ops/batch/entry_042.md", entry_bytes("Entry 42"))
    write(project.tree, "ops/batch/entry_007.md", "---\ntitle: [unclosed\n---\nbody\n")
    ok(_brv("vc", "add", cwd=project.root))
    invalid = _brv("vc", "commit", "-m", "batch", cwd=project.root)
    assert invalid.returncode == 1
    assert "cannot commit: 1 staged file(s) are not valid knowledge" in invalid.stderr
    assert "ops/batch/entry_007.md" in invalid.stderr
    write(project.tree, "ops/batch/entry_007.md", entry_bytes("Entry 7"))
    ok(_brv("vc", "add", cwd=project.root))
    done = _brv("vc", "commit", "-m", "batch", "--json", cwd=project.root)
    ok(done)
    answer = json.loads(done.stdout)
    assert answer["ok"] is True
    assert answer["files"] == 100


def test_in_project_commit_keeps_staged_code_out_and_notes_renamed_code(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    ok(_brv("hooks", "install", cwd=root))
    write(project.tree, "auth/jwt/about_app.md",
          entry_bytes("About app", "The entry point is src/app.py.\n"))
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "linked", cwd=root)
    ok(_brv("index", cwd=root))
    # staged code beside staged knowledge: brv vc commit commits the knowledge only
    write(root, "src/app.py", "print('changed')\n")
    write(project.tree, "auth/jwt/other.md", entry_bytes("Other"))
    git("add", "-A", cwd=root)
    ok(_brv("vc", "commit", "-m", "knowledge only", cwd=root))
    shown = git("show", "--name-only", "--format=", "HEAD", cwd=root).stdout.split()
    assert shown == [".brv/context-tree/auth/jwt/other.md"]
    assert git("diff", "--cached", "--name-only", cwd=root).stdout.split() == ["src/app.py"]
    # a plain commit renaming the linked code: pre-commit's one listing still names it
    git("commit", "-q", "-m", "code", cwd=root)
    git("mv", "src/app.py", "src/main.py", cwd=root)
    noted = git("commit", "-q", "-m", "move", cwd=root)
    assert "src/app.py renamed to src/main.py; knowledge that describes it: " \
           "auth/jwt/about_app.md (not in this commit)" in noted.stderr


def test_push_reads_remotes_and_upstream_in_one_config_read(tmp_path: Path) -> None:
    from brv_vc.services.vc.remotes import list_remotes, read_config, remotes_of, upstream_of
    from brv_vc.vc.repo import locate

    project = standalone(tmp_path)
    tree = project.tree
    for name, url in (("origin", "/srv/one.git"), ("Team.B", "ssh://h/two with space.git")):
        git("remote", "add", name, url, cwd=tree)
    repo = locate(project)
    git("checkout", "-q", "-b", "Feat/x.y-1", cwd=tree)
    assert upstream_of(read_config(repo), "Feat/x.y-1") is None
    git("config", "branch.Feat/x.y-1.remote", "Team.B", cwd=tree)
    git("config", "branch.Feat/x.y-1.merge", "refs/heads/main", cwd=tree)
    git("config", "branch.feat/x.y-1.remote", "origin", cwd=tree)  # another branch
    config = read_config(repo)
    assert remotes_of(config) == list_remotes(repo) == {"origin": "/srv/one.git",
                                                        "Team.B": "ssh://h/two with space.git"}
    assert upstream_of(config, "Feat/x.y-1") == ("Team.B", "main")


def test_in_project_commit_leaves_no_temporary_files_when_commit_msg_does_not_run(
        tmp_path: Path) -> None:
    """The temporary index's note for commit-msg goes with the index (a manager without one)."""
    project = in_project(tmp_path)
    root = project.root
    ok(_brv("hooks", "install", cwd=root))
    (root / ".git/hooks/commit-msg").unlink()  # as a hook manager that only runs pre-commit
    write(root, "src/app.py", "print('changed')\n")
    write(project.tree, "auth/jwt/other.md", entry_bytes("Other"))
    git("add", "-A", cwd=root)
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    ok(run(sys.executable, "-m", "brv_vc", "vc", "commit", "-m", "knowledge only", cwd=root,
           env={**git_env(), "TMPDIR": str(tmp)}))
    assert git("show", "--name-only", "--format=", "HEAD", cwd=root).stdout.split() == [
        ".brv/context-tree/auth/jwt/other.md"]
    assert sorted(p.name for p in tmp.iterdir()) == []
