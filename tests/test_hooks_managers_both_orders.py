"""Real husky and lefthook (from npm) and the pre-commit framework, each before and after brv, and a
teammate's plain clone: a malformed entry is refused, or the brv command run says brv's checks
are off and the one command that turns them on; brv is never looked up on PATH.

npm installs husky 9.1.7 and lefthook 2.2.1 once per session (a few seconds); without npm or
its registry these tests are skipped with the reason.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hooks_support import entry_bytes, git, git_env, head, in_project, no_brv_path, write
from manager_support import BROKEN, TEAM_CONFIG, ok, pre_commit, run

TEAM = 'echo team-ran >> "$(git rev-parse --git-dir)/team.log"\n'
LEFTHOOK_TEAM = "pre-commit:\n  commands:\n    lint:\n      run: echo lint  # the team's\n"


@pytest.fixture(scope="session")
def npm_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """node_modules/.bin with the real husky and lefthook, installed once per session."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the real husky and lefthook come from npm")
    folder = tmp_path_factory.mktemp("npm-managers")
    (folder / "package.json").write_text('{"name": "managers", "private": true}\n')
    done = subprocess.run([npm, "install", "--no-audit", "--no-fund", "-E", "husky@9.1.7",
                           "lefthook@2.2.1"], cwd=folder, capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode != 0:
        pytest.skip(f"npm cannot install husky and lefthook here: {done.stderr[-300:]}")
    return folder / "node_modules" / ".bin"


def _env() -> dict[str, str]:
    return git_env(PATH=no_brv_path())


def brv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``brv ARGS`` run by its absolute interpreter, never from PATH."""
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd, env=_env())


def _commit(root: Path, message: str) -> subprocess.CompletedProcess[str]:
    return run("git", "commit", "-q", "-m", message, cwd=root, env=_env())


def _refused(root: Path) -> subprocess.CompletedProcess[str]:
    """Stages a malformed entry and commits it: brv must refuse (nothing committed)."""
    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    proc = _commit(root, "broken")
    assert proc.returncode != 0, proc.stdout + proc.stderr
    assert "auth/jwt/broken.md: malformed YAML" in proc.stdout + proc.stderr
    assert head(root) == before
    git("rm", "-q", "--cached", ".brv/context-tree/auth/jwt/broken.md", cwd=root)
    (root / ".brv/context-tree/auth/jwt/broken.md").unlink()
    return proc


def _code_commit_passes(root: Path, name: str) -> None:
    write(root, f"src/{name}.py", "x = 1\n")
    git("add", f"src/{name}.py", cwd=root)
    ok(_commit(root, f"code {name}"))


def _team_runs(root: Path) -> int:
    log = root / ".git/team.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def _husky(root: Path, npm_bin: Path) -> None:
    ok(run(npm_bin / "husky", cwd=root, env=_env()))  # husky 9: .husky/_ and core.hooksPath
    write(root, ".husky/pre-commit", TEAM)


def test_husky_after_brv_is_said_once_and_install_joins(tmp_path: Path, npm_bin: Path) -> None:
    root = in_project(tmp_path).root
    ok(brv("hooks", "install", cwd=root))
    _husky(root, npm_bin)
    told = ok(brv("vc", "status", cwd=root))
    assert "husky runs git's pre-commit hook here and brv's check is not in" in told.stderr
    assert "fix: brv hooks install\n" in told.stderr
    assert "brv: warning" not in ok(brv("vc", "log", cwd=root)).stderr  # said once
    ok(brv("hooks", "install", cwd=root))
    _refused(root)
    assert _team_runs(root) == 1
    _code_commit_passes(root, "a")
    assert "brv: warning" not in ok(brv("vc", "status", cwd=root)).stderr


def test_husky_before_brv_refuses_a_malformed_entry(tmp_path: Path, npm_bin: Path) -> None:
    root = in_project(tmp_path).root
    _husky(root, npm_bin)
    ok(brv("hooks", "install", cwd=root))
    _refused(root)
    _code_commit_passes(root, "a")
    assert _team_runs(root) == 2


def test_lefthook_after_brv_is_said_once_and_integrate_joins(tmp_path: Path,
                                                             npm_bin: Path) -> None:
    root = in_project(tmp_path).root
    ok(brv("hooks", "install", cwd=root))
    write(root, "lefthook.yml", LEFTHOOK_TEAM)
    installed = ok(run(npm_bin / "lefthook", "install", cwd=root, env=_env()))
    assert "pre-commit.old" in installed.stdout + installed.stderr  # brv's shim, now dead
    told = ok(brv("vc", "status", cwd=root))
    assert "lefthook runs git's pre-commit hook here (it renamed brv's hook to " \
           "pre-commit.old, which no longer runs)" in told.stderr
    assert "fix: brv hooks install --integrate" in told.stderr
    assert "brv: warning" not in ok(brv("vc", "status", cwd=root)).stderr
    ok(brv("hooks", "install", "--integrate", cwd=root))
    text = (root / "lefthook.yml").read_text()
    assert "run: echo lint  # the team's" in text  # the team's lines and comment kept
    ok(brv("hooks", "install", "--integrate", cwd=root))
    assert (root / "lefthook.yml").read_text() == text  # idempotent
    _refused(root)
    _code_commit_passes(root, "a")


def test_lefthook_before_brv_the_printed_config_works_verbatim(tmp_path: Path,
                                                               npm_bin: Path) -> None:
    root = in_project(tmp_path).root
    write(root, "lefthook.yml", LEFTHOOK_TEAM)
    ok(run(npm_bin / "lefthook", "install", cwd=root, env=_env()))
    report = json.loads(ok(brv("hooks", "install", "--json", cwd=root)).stdout)
    assert report["manager"] == "lefthook"
    assert report["can_integrate"] is True
    assert (root / "lefthook.yml").read_text() == LEFTHOOK_TEAM  # not without consent
    first, _, body = report["snippet"].partition("\n")
    assert "brv hooks install --integrate" in first
    (root / "lefthook.yml").write_text(body + "\n")  # pasted as printed
    _refused(root)
    _code_commit_passes(root, "a")
    # a teammate's machine without brv: code commits pass, knowledge is refused loudly
    git("config", "brv.python", str(tmp_path / "gone/python"), cwd=root)
    _code_commit_passes(root, "b")
    write(root, ".brv/context-tree/auth/jwt/new.md", entry_bytes("New"))
    git("add", ".brv", cwd=root)
    refused = _commit(root, "knowledge without brv")
    assert refused.returncode != 0
    assert "the brv git hook cannot find brv" in refused.stdout + refused.stderr


def test_framework_before_brv_the_printed_config_works_verbatim(tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG)
    git("add", ".pre-commit-config.yaml", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "team hooks", cwd=root)
    ok(pre_commit("install", cwd=root, home=home))
    report = json.loads(ok(brv("hooks", "install", "--json", cwd=root)).stdout)
    assert report["manager"] == "pre-commit"
    assert report["can_integrate"] is True
    assert "rev:" not in report["snippet"]  # a local hook: no tag that may not exist
    _, _, body = report["snippet"].partition("\n")
    (root / ".pre-commit-config.yaml").write_text(body + "\n")
    git("add", ".pre-commit-config.yaml", cwd=root)
    env = {**_env(), "PRE_COMMIT_HOME": str(home)}
    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    refused = run("git", "commit", "-q", "-m", "broken", cwd=root, env=env)
    assert refused.returncode != 0
    assert "auth/jwt/broken.md: malformed YAML" in refused.stdout + refused.stderr
    assert head(root) == before
    text = (root / ".pre-commit-config.yaml").read_text()
    ok(brv("hooks", "install", "--integrate", cwd=root))
    assert (root / ".pre-commit-config.yaml").read_text() == text  # already there: unchanged


def test_framework_integrate_writes_the_config(tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG)
    ok(pre_commit("install", cwd=root, home=home))
    done = ok(brv("hooks", "install", "--integrate", cwd=root))
    assert "brv's part was written into" in done.stdout
    git("add", "-A", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "team hooks", cwd=root)
    env = {**_env(), "PRE_COMMIT_HOME": str(home)}
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    assert run("git", "commit", "-q", "-m", "broken", cwd=root, env=env).returncode != 0
    assert _team_runs(root) == 1


def test_a_teammates_plain_clone_is_told_once_and_one_line_sets_it_up(tmp_path: Path) -> None:
    origin = in_project(tmp_path).root
    ok(brv("hooks", "install", cwd=origin))
    clone = tmp_path / "teammate"
    git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    assert not (clone / ".git/hooks/pre-commit").exists()  # git copies no hooks
    told = ok(brv("vc", "status", cwd=clone))
    assert "brv's git hooks are not installed in this clone" in told.stderr
    assert "fix: brv vc init --in-project" in told.stderr
    assert "brv: warning" not in ok(brv("vc", "status", cwd=clone)).stderr  # once
    ok(brv("vc", "init", "--in-project", cwd=clone))
    assert git("config", "merge.brv.driver", cwd=clone).stdout.strip()
    _refused(clone)
    _code_commit_passes(clone, "a")
    assert "brv: warning" not in ok(brv("vc", "status", cwd=clone)).stderr


def test_a_clone_whose_post_checkout_runs_brv_is_told_what_it_lacks(tmp_path: Path,
                                                                     npm_bin: Path) -> None:
    """husky's committed .husky/post-checkout runs brv in a clone without the merge driver."""
    origin = in_project(tmp_path).root
    _husky(origin, npm_bin)
    ok(brv("hooks", "install", cwd=origin))
    git("add", "-A", cwd=origin)
    git("commit", "-q", "--no-verify", "-m", "husky", cwd=origin)
    git("branch", "other", cwd=origin)
    clone = tmp_path / "teammate"
    git("clone", "-q", str(origin), str(clone), cwd=tmp_path)
    ok(run(npm_bin / "husky", cwd=clone, env=_env()))  # what `npm install` runs (prepare)
    git("config", "brv.python", sys.executable, cwd=clone)  # their brv (found as on PATH)
    switched = run("git", "checkout", "-q", "other", cwd=clone, env=_env())
    assert switched.returncode == 0, switched.stderr
    assert "the knowledge merge driver is not set up in this clone" in switched.stderr
    assert "fix: brv vc init --in-project" in switched.stderr
    again = run("git", "checkout", "-q", "-", cwd=clone, env=_env())
    assert "brv: warning" not in again.stderr  # once
