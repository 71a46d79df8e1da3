"""Commit, push and the hooks judge what the change brings, each once (issue 24)."""

from __future__ import annotations

import sys
from pathlib import Path

from hooks_support import entry_bytes, git, git_env, log_lines, standalone, write
from manager_support import ok, run

from brv_vc.tree.project import Project

ROT = "auth/jwt/token_rotation.md"
CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def _brv(*args: str, cwd: Path, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd, env=env)


def _hooked(tmp_path: Path) -> Project:
    project = standalone(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    return project


def test_commit_judges_the_staged_files_not_an_unstaged_conflicted_one(tmp_path: Path) -> None:
    project = _hooked(tmp_path)
    write(project.tree, ROT, CONFLICTED)  # tracked, edited, not staged: not in this commit
    write(project.tree, "auth/jwt/signing_keys.md", entry_bytes("Signing keys"))
    ok(_brv("vc", "add", "auth/jwt/signing_keys.md", cwd=project.root))
    ok(_brv("vc", "commit", "-m", "keys", cwd=project.root))
    shown = git("show", "--name-only", "--format=", "HEAD", cwd=project.tree).stdout.split()
    assert shown == ["auth/jwt/signing_keys.md"]
    ok(_brv("vc", "add", ROT, cwd=project.root))
    refused = _brv("vc", "commit", "-m", "markers", cwd=project.root)
    assert refused.returncode == 1
    assert f"cannot commit: conflict markers remain in {ROT}" in refused.stderr


def test_pre_commit_skips_only_the_tree_brv_vc_commit_validated(tmp_path: Path) -> None:
    project = _hooked(tmp_path)
    write(project.tree, "auth/jwt/broken.md", "---\ntitle: [unclosed\n---\nbody\n")
    git("add", "-A", cwd=project.tree)
    other = git("rev-parse", "HEAD^{tree}", cwd=project.tree).stdout.strip()
    refused = git("commit", "-q", "-m", "told another tree", cwd=project.tree, check=False,
                  env=git_env(BRV_COMMIT_CHECKED=other))
    assert refused.returncode == 1
    assert "auth/jwt/broken.md" in refused.stderr
    staged = git("write-tree", cwd=project.tree).stdout.strip()
    # the named tree was validated by the command that runs git: the hook trusts it
    git("commit", "-q", "-m", "told this tree", cwd=project.tree,
        env=git_env(BRV_COMMIT_CHECKED=staged))


def _markers_committed_beside_a_remote(tmp_path: Path) -> tuple[Project, Path]:
    """A hooked tree with a bare remote, and a commit with conflict markers not yet pushed."""
    project = _hooked(tmp_path)
    bare = tmp_path / "remote.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    git("remote", "add", "origin", str(bare), cwd=project.tree)
    write(project.tree, ROT, CONFLICTED)
    git("commit", "-q", "--no-verify", "-am", "markers", cwd=project.tree)
    return project, bare


def test_push_judges_what_it_brings_not_what_the_remote_has(tmp_path: Path) -> None:
    project, _ = _markers_committed_beside_a_remote(tmp_path)
    git("push", "-q", "--no-verify", "-u", "origin", "HEAD:main", cwd=project.tree)
    # the markers are the remote's already; a push that brings only a new entry goes through
    write(project.tree, "auth/jwt/signing_keys.md", entry_bytes("Signing keys"))
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "--no-verify", "-m", "keys", cwd=project.tree)
    ok(run("git", "push", "-q", "origin", "HEAD:main", cwd=project.tree))
    # a push that brings markers is refused, by git's hook and by brv vc push
    write(project.tree, "auth/jwt/signing_keys.md", CONFLICTED)
    git("commit", "-q", "--no-verify", "-am", "more markers", cwd=project.tree)
    plain = run("git", "push", "-q", "origin", "HEAD:main", cwd=project.tree)
    assert plain.returncode == 1
    assert "conflict markers remain in auth/jwt/signing_keys.md" in plain.stderr
    ours = _brv("vc", "push", cwd=project.root)
    assert ours.returncode == 1
    assert "conflict markers remain in auth/jwt/signing_keys.md" in ours.stderr


def test_a_hook_the_running_command_does_itself_does_nothing(tmp_path: Path) -> None:
    project = _hooked(tmp_path)
    before = len(log_lines(project))
    argv = ("hook-impl", "post-merge", "0")
    ok(_brv(*argv, cwd=project.tree, env=git_env(BRV_REFRESHING="post-merge")))
    assert len(log_lines(project)) == before
    ok(_brv(*argv, cwd=project.tree, env=git_env(BRV_REFRESHING="post-checkout")))
    assert len(log_lines(project)) == before + 1


def test_brv_vc_commit_refreshes_in_process_and_its_hooks_start_no_python(
        tmp_path: Path) -> None:
    project = _hooked(tmp_path)
    before = len(log_lines(project))
    write(project.tree, "auth/jwt/signing_keys.md", entry_bytes("Signing keys"))
    ok(_brv("vc", "add", cwd=project.root))
    ok(_brv("vc", "commit", "-m", "keys", cwd=project.root))
    # the folder summary is the command's own work: no hook process ran (none logged)
    assert "signing_keys" in (project.tree / "auth/jwt/_index.md").read_text(encoding="utf-8")
    assert len(log_lines(project)) == before
    # a plain commit still has its hook do the whole job
    write(project.tree, "auth/jwt/sessions.md", entry_bytes("Sessions"))
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "-m", "sessions", cwd=project.tree)
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]
    assert "sessions" in (project.tree / "auth/jwt/_index.md").read_text(encoding="utf-8")


def test_the_shims_skip_what_the_running_brv_command_did_without_starting_python(
        tmp_path: Path) -> None:
    project, _ = _markers_committed_beside_a_remote(tmp_path)
    tip = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    # no brv for the shims to start: only a skip in the shim itself lets these through
    lost = git_env(PYTHONPATH=str(tmp_path / "nowhere"), PATH="/usr/bin:/bin")
    shim = project.tree / ".git/hooks/pre-push"
    shim.write_text(shim.read_text().replace("PY=", "PY=/nowhere/python #", 1))
    pushed = git("push", "-q", "origin", "HEAD:main", cwd=project.tree, check=False,
                 env={**lost, "BRV_PUSH_CHECKED": tip})
    assert pushed.returncode == 0, pushed.stderr
    assert "cannot find brv" not in pushed.stderr
    write(project.tree, ROT, CONFLICTED + "More.\n")
    git("commit", "-q", "--no-verify", "-am", "more", cwd=project.tree)
    refused = git("push", "-q", "origin", "HEAD:main", cwd=project.tree, check=False,
                  env={**lost, "BRV_PUSH_CHECKED": tip})  # another commit: brv must judge it
    assert "cannot find brv" in refused.stderr
