"""The .pre-commit-hooks.yaml manifest, checked by the pre-commit framework itself."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO
from hooks_support import entry_bytes, git, log_lines, standalone, write

PRE_COMMIT = [sys.executable, "-m", "pre_commit"]


def _pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PRE_COMMIT_HOME"] = str(home)
    return subprocess.run([*PRE_COMMIT, *args], cwd=cwd, env=env, capture_output=True,
                          text=True, check=False)


def test_manifest_is_valid_for_the_framework(tmp_path: Path) -> None:
    proc = _pre_commit("validate-manifest", str(REPO / ".pre-commit-hooks.yaml"), cwd=REPO,
                       home=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert hooks["brv-validate"]["stages"] == ["pre-commit", "manual"]
    assert hooks["brv-refresh"]["stages"] == ["post-merge", "post-checkout", "post-rewrite"]
    assert all(h["language"] == "python" for h in hooks.values())
    assert "pass_filenames" not in hooks["brv-validate"]  # brv validate FILES
    assert hooks["brv-refresh"]["pass_filenames"] is False
    # commit-msg: the framework passes the message file, the hook's one argument
    assert hooks["brv-archive-trailers"]["stages"] == ["commit-msg"]
    assert "pass_filenames" not in hooks["brv-archive-trailers"]
    assert hooks["brv-refresh"]["always_run"] is True


@pytest.mark.slow
def test_try_repo_installs_brv_and_runs_both_hooks(tmp_path: Path) -> None:
    """pip-installs this checkout (and its dependencies) into pre-commit's own environment."""
    if git("rev-parse", "-q", "--verify", "HEAD", cwd=REPO, check=False).returncode != 0:
        pytest.skip("try-repo needs a committed HEAD in this checkout")
    project = standalone(tmp_path)
    tree, home = project.tree, tmp_path / "pre-commit-home"
    first = git("rev-parse", "HEAD", cwd=tree).stdout.strip()
    write(tree, "auth/jwt/broken.md", "---\ntitle: [x\n---\n")
    git("add", "-A", cwd=tree)
    proc = _pre_commit("try-repo", str(REPO), "brv-validate", cwd=tree, home=home)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "auth/jwt/broken.md: malformed YAML in the frontmatter" in proc.stdout

    write(tree, "auth/jwt/broken.md", entry_bytes("Fixed"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "-m", "fixed", cwd=tree)
    second = git("rev-parse", "HEAD", cwd=tree).stdout.strip()
    proc = _pre_commit("try-repo", str(REPO), "brv-refresh", "--hook-stage", "post-checkout",
                       "--from-ref", first, "--to-ref", second, "--checkout-type", "1",
                       cwd=tree, home=home)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert log_lines(project)[-1]["hook"] == "post-checkout"
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/broken.md"]
