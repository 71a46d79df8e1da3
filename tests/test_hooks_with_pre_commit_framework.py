"""brv's hooks beside pip's real pre-commit framework, installed in either order, and removed."""

from __future__ import annotations

import sys
from pathlib import Path

from hooks_support import entry_bytes, git, head, in_project, write
from manager_support import BROKEN, TEAM_CONFIG, brv_cli, commit, ok, pre_commit, run

from brv_vc.services.init import init_project

# brv's ids of .pre-commit-hooks.yaml, run here from this checkout (no pip install of brv).
BRV_LOCAL = f"""\
      - id: brv-validate
        name: brv validate
        language: system
        entry: {sys.executable} -m brv_vc validate
        require_serial: true
"""


def _team_repo(tmp: Path) -> Path:
    project = in_project(tmp)
    write(project.root, ".pre-commit-config.yaml", TEAM_CONFIG)
    git("add", ".pre-commit-config.yaml", cwd=project.root)
    git("commit", "-q", "--no-verify", "-m", "team hooks", cwd=project.root)
    return project.root


def _team_runs(root: Path) -> int:
    log = root / ".git" / "team.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def _status(root: Path) -> dict[str, dict[str, object]]:
    data = ok(brv_cli("hooks", "status", "--json", cwd=root)).stdout
    import json

    report = json.loads(data)
    assert report["manager"] == "pre-commit"
    return {h["name"]: h for h in report["hooks"]}


def test_brv_then_pre_commit_install_commits_and_both_run(tmp_path: Path) -> None:
    root, home = _team_repo(tmp_path), tmp_path / "pc-home"
    ok(brv_cli("hooks", "install", cwd=root))
    ok(pre_commit("install", cwd=root, home=home))  # moves brv's shim to pre-commit.legacy
    assert (root / ".git/hooks/pre-commit.legacy").read_text().count("brv-vc-hook-id") == 1

    write(root, ".brv/context-tree/auth/jwt/new.md", entry_bytes("New"))
    git("add", "-A", cwd=root)
    ok(commit(root, "new entry", home))  # returns (it looped forever before)
    assert _team_runs(root) == 1
    ok(run("git", "checkout", "-q", "-b", "feature", cwd=root))
    hooks = _status(root)
    assert hooks["pre-commit"]["runner"] == "pre-commit"
    assert hooks["pre-commit"]["brv_runs"] is True  # our shim, as the framework's legacy hook
    assert hooks["post-merge"]["runner"] == "brv"

    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    refused = commit(root, "broken", home)
    assert refused.returncode == 1
    assert "auth/jwt/broken.md: malformed YAML in the frontmatter" in refused.stderr
    assert head(root) == before


def test_pre_commit_uninstall_gives_brv_its_hook_back(tmp_path: Path) -> None:
    root, home = _team_repo(tmp_path), tmp_path / "pc-home"
    ok(brv_cli("hooks", "install", cwd=root))
    ok(pre_commit("install", cwd=root, home=home))
    ok(pre_commit("uninstall", cwd=root, home=home))
    assert "brv-vc-hook-id" in (root / ".git/hooks/pre-commit").read_text()
    assert not (root / ".git/hooks/pre-commit.legacy").exists()
    assert _status_plain(root)["pre-commit"]["state"] == "installed"


def _status_plain(root: Path) -> dict[str, dict[str, object]]:
    import json

    report = json.loads(ok(brv_cli("hooks", "status", "--json", cwd=root)).stdout)
    return {h["name"]: h for h in report["hooks"]}


def test_pre_commit_then_brv_leaves_the_framework_alone_and_says_how(tmp_path: Path) -> None:
    root, home = _team_repo(tmp_path), tmp_path / "pc-home"
    ok(pre_commit("install", cwd=root, home=home))
    framework = (root / ".git/hooks/pre-commit").read_bytes()
    result = ok(brv_cli("hooks", "install", cwd=root))
    assert (root / ".git/hooks/pre-commit").read_bytes() == framework
    assert not (root / ".git/hooks/pre-commit.legacy").exists()
    assert "hook manager: pre-commit" in result.stdout
    assert "brv's part does not run in pre-commit" in result.stdout
    assert "- id: brv-validate" in result.stdout
    assert "- id: brv-archive-trailers" in result.stdout
    assert "rev:" not in result.stdout  # a local hook: no tag that may not exist
    assert "- repo: local" in result.stdout

    write(root, ".brv/context-tree/auth/jwt/new.md", entry_bytes("New"))
    git("add", "-A", cwd=root)
    done = ok(commit(root, "new entry", home))  # no "bug: ... migration mode"
    assert "migration mode" not in done.stderr + done.stdout
    assert _team_runs(root) == 1
    hooks = _status(root)
    assert hooks["pre-commit"] == {**hooks["pre-commit"], "runner": "pre-commit",
                                   "brv_runs": False}
    text = ok(brv_cli("hooks", "status", cwd=root)).stdout
    assert "pre-commit     pre-commit's script runs; brv's part does NOT run" in text


def test_brv_ids_in_the_framework_config_run_and_status_says_so(tmp_path: Path) -> None:
    root, home = _team_repo(tmp_path), tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG + BRV_LOCAL)
    git("add", ".pre-commit-config.yaml", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "brv in the framework", cwd=root)
    ok(pre_commit("install", cwd=root, home=home))
    ok(brv_cli("hooks", "install", cwd=root))
    assert _status(root)["pre-commit"]["brv_runs"] is True

    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    refused = commit(root, "broken", home)
    assert refused.returncode == 1
    assert "auth/jwt/broken.md: malformed YAML in the frontmatter" in refused.stdout + refused.stderr
    assert head(root) == before
    assert _team_runs(root) == 1

    removed = ok(brv_cli("hooks", "uninstall", cwd=root))
    assert "pre-commit     not brv's hook: left alone" in removed.stdout
    git("rm", "-q", "--cached", ".brv/context-tree/auth/jwt/broken.md", cwd=root)
    write(root, "src/more.py", "x = 1\n")
    git("add", "src/more.py", cwd=root)
    ok(commit(root, "team hook alone", home))
    assert _team_runs(root) == 2


def test_vc_init_in_a_framework_repository_says_what_to_add_and_commits_work(
        tmp_path: Path) -> None:
    """The issue's order: `pre-commit install`, then `brv vc init --in-project`."""
    root, home = tmp_path / "app", tmp_path / "pc-home"
    root.mkdir()
    git("init", "-q", cwd=root)
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG)
    git("add", ".pre-commit-config.yaml", cwd=root)
    ok(pre_commit("install", cwd=root, home=home))
    init_project(root)
    result = ok(brv_cli("vc", "init", "--in-project", cwd=root))
    assert "git hook pre-commit: left to pre-commit" in result.stdout
    assert "- id: brv-validate" in result.stdout
    write(root, ".brv/context-tree/auth/jwt/new.md", entry_bytes("New"))
    git("add", "-A", cwd=root)
    done = ok(commit(root, "first", home))
    assert "migration mode" not in done.stdout + done.stderr
    assert _team_runs(root) == 1


def test_the_documented_rev_is_the_installed_versions_tag() -> None:
    """Releases are tagged v<version> (README "Releases"): docs and fallback name that tag."""
    from conftest import REPO

    from brv_vc import __version__
    from brv_vc.vc.hook_managers import RELEASE

    assert f"v{__version__}" == RELEASE
    assert f"rev: {RELEASE} " in (REPO / "docs/hooks.md").read_text()
    assert f"git tag -a {RELEASE} " in (REPO / "README.md").read_text()
