"""git's pre-push hook refuses a plain `git push` of broken knowledge exactly as `brv vc push` does."""

from __future__ import annotations

import sys
from pathlib import Path

import yaml
from conftest import REPO
from hooks_support import entry_bytes, git, git_env, in_project, standalone, write
from manager_support import ok, run

from brv_vc.tree.project import Project

CONFLICTED = ("---\ntitle: Token rotation\n---\n<<<<<<< ours\nRotate daily.\n=======\n"
              "Rotate weekly.\n>>>>>>> theirs\n")


def _with_remote(repo: Path, tmp: Path) -> Path:
    bare = tmp / "remote.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp)
    git("remote", "add", "origin", str(bare), cwd=repo)
    ok(run("git", "push", "-q", "-u", "origin", "HEAD:main", cwd=repo))
    return bare


def _remote_head(bare: Path) -> str:
    return git("rev-parse", "main", cwd=bare).stdout.strip()


def _brv(*args: str, cwd: Path):  # type: ignore[no-untyped-def]
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd)


def test_conflict_markers_are_refused_by_git_push_as_by_brv_vc_push(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    assert (project.tree / ".git/hooks/pre-push").exists()
    bare = _with_remote(project.tree, tmp_path)
    pushed = _remote_head(bare)

    write(project.tree, "auth/jwt/token_rotation.md", CONFLICTED)
    git("commit", "-q", "--no-verify", "-am", "oops", cwd=project.tree)
    plain = run("git", "push", "-q", "origin", "HEAD:main", cwd=project.tree)
    assert plain.returncode == 1
    assert "brv: push refused: cannot push: conflict markers remain in auth/jwt/token_rotation.md" \
        in plain.stderr
    assert _remote_head(bare) == pushed

    ours = _brv("vc", "push", cwd=project.root)
    assert ours.returncode == 1
    assert "cannot push: conflict markers remain in auth/jwt/token_rotation.md" in ours.stderr
    assert _remote_head(bare) == pushed


def test_tracked_derived_files_are_refused_in_project_mode(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    bare = _with_remote(project.root, tmp_path)
    pushed = _remote_head(bare)
    write(project.tree, "auth/_index.md", "---\ntitle: Auth\n---\nsummary\n")
    git("add", "-f", ".brv/context-tree/auth/_index.md", cwd=project.root)
    git("commit", "-q", "--no-verify", "-m", "derived by mistake", cwd=project.root)
    plain = run("git", "push", "-q", "origin", "HEAD:main", cwd=project.root)
    assert plain.returncode == 1
    assert "sync-excluded (derived) files are tracked: auth/_index.md" in plain.stderr
    assert "git rm --cached -- .brv/context-tree/auth/_index.md" in plain.stderr
    assert _remote_head(bare) == pushed

    git("rm", "-q", "--cached", ".brv/context-tree/auth/_index.md", cwd=project.root)
    write(project.tree, "auth/jwt/more.md", entry_bytes("More"))
    git("add", ".brv/context-tree/auth/jwt/more.md", cwd=project.root)
    git("commit", "-q", "-m", "fixed", cwd=project.root)
    ok(run("git", "push", "-q", "origin", "HEAD:main", cwd=project.root))
    assert _remote_head(bare) == git("rev-parse", "HEAD", cwd=project.root).stdout.strip()


def test_a_teams_pre_push_hook_still_runs_and_may_block(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    hooks = project.tree / ".git/hooks"
    write(hooks, "pre-push", '#!/bin/sh\ncat > "$(dirname "$0")/seen"\nexit 3\n').chmod(0o755)
    ok(_brv("hooks", "install", cwd=project.root))
    bare = tmp_path / "remote.git"
    git("init", "-q", "--bare", str(bare), cwd=tmp_path)
    git("remote", "add", "origin", str(bare), cwd=project.tree)
    refused = run("git", "push", "-q", "origin", "HEAD:main", cwd=project.tree)
    assert refused.returncode == 1
    assert "refs/heads/main" in (hooks / "seen").read_text()  # the legacy hook got stdin
    assert git("rev-parse", "-q", "--verify", "main", cwd=bare, check=False).returncode != 0


def with_a_bad_commit(tmp_path: Path) -> tuple[Project, str, str]:
    """A standalone project whose HEAD (``bad``) commits conflict markers over ``good``."""
    project = standalone(tmp_path)
    good = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    write(project.tree, "auth/jwt/token_rotation.md", CONFLICTED)
    git("commit", "-q", "--no-verify", "-am", "oops", cwd=project.tree)
    return project, good, git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()


def test_the_framework_pre_push_id_checks_the_commit_it_names(tmp_path: Path) -> None:
    """brv-pre-push of .pre-commit-hooks.yaml: the framework passes PRE_COMMIT_TO_REF, no stdin."""
    project, good, bad = with_a_bad_commit(tmp_path)
    argv = (sys.executable, "-m", "brv_vc", "hook-impl", "pre-push", "origin", "url")
    refused = run(*argv, cwd=project.tree, input="", env=git_env(PRE_COMMIT_TO_REF=bad))
    assert refused.returncode == 1
    assert "cannot push: conflict markers remain" in refused.stderr
    ok(run(*argv, cwd=project.tree, input="", env=git_env(PRE_COMMIT_TO_REF=good)))
    manifest = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert {h["id"]: h["stages"] for h in manifest}["brv-pre-push"] == ["pre-push"]


def test_the_hook_skips_only_the_commit_brv_vc_push_already_checked(tmp_path: Path) -> None:
    project, good, bad = with_a_bad_commit(tmp_path)
    argv = (sys.executable, "-m", "brv_vc", "hook-impl", "pre-push", "origin", "url")
    line = f"refs/heads/main {bad} refs/heads/main {'0' * 40}\n"
    ok(run(*argv, cwd=project.tree, input=line, env=git_env(BRV_PUSH_CHECKED=bad)))
    for told in ({"BRV_PUSH_CHECKED": good}, {}):  # another commit checked, or none: a plain push
        refused = run(*argv, cwd=project.tree, input=line, env=git_env(**told))
        assert refused.returncode == 1
        assert "cannot push: conflict markers remain" in refused.stderr


def test_brv_vc_push_tells_its_pre_push_hook_which_commit_it_checked(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    hooks = project.tree / ".git/hooks"
    write(hooks, "pre-push", '#!/bin/sh\necho "[$BRV_PUSH_CHECKED]" >> "$(dirname "$0")/seen"\n'
          ).chmod(0o755)
    ok(_brv("hooks", "install", cwd=project.root))  # ours runs, then chains to the team's
    _with_remote(project.tree, tmp_path)
    write(project.tree, "auth/jwt/more.md", entry_bytes("More"))
    git("add", "auth/jwt/more.md", cwd=project.tree)
    git("commit", "-q", "-m", "more", cwd=project.tree)
    ok(_brv("vc", "push", cwd=project.root))
    head = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    assert (hooks / "seen").read_text().splitlines() == ["[]", f"[{head}]"]
