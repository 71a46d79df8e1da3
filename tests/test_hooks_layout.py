"""The pre-commit hook refuses what brv would never read as knowledge: markdown outside the
layout (invisible to index and search) and per-machine state under ``.brv/state/``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import snapshot
from hooks_support import entry_bytes, git, head, in_project, standalone, write

from brv_vc.tree.project import Project

BYPASS = "to commit anyway (not recommended): git commit --no-verify"
RULE = "knowledge lives in domain/topic/entry.md or domain/topic/subtopic/entry.md"


def _refused(repo: Path, root: Path) -> str:
    before, files = head(repo), snapshot(root)
    proc = git("commit", "-q", "-m", "change", cwd=repo, check=False)
    assert proc.returncode == 1, proc.stderr
    assert head(repo) == before
    assert snapshot(root) == files
    assert BYPASS in proc.stderr
    return proc.stderr


@pytest.mark.parametrize(("rel", "where"), [
    ("auth/auth_overview.md", "it sits directly in the domain folder auth/"),
    ("notes.md", "it sits at the root of the context tree"),
    ("a/b/c/d/deep.md", "it is 4 folders deep; the most is 3 (domain/topic/subtopic)"),
])
def test_markdown_outside_the_layout_is_refused(tmp_path: Path, brv, rel: str, where: str) -> None:
    project = standalone(tmp_path)
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    write(project.tree, rel, entry_bytes("Auth overview", "MFA is mandatory.\n"))
    git("add", "-A", cwd=project.tree)
    err = _refused(project.tree, project.root)
    assert "brv: commit refused: 1 staged file(s) are not valid knowledge" in err
    assert f"  {rel}: is outside the layout ({where}): {RULE}, so brv never indexes" in err
    assert "    fix: move it into a topic folder" in err


def test_state_files_are_refused_in_project_mode(tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    assert brv("search", "rotation", cwd=project.root).exit_code == 0  # writes index.db
    # an old clone, from before .brv/state/ ignored itself: nothing ignores the state
    (project.brv_dir / ".gitignore").unlink()
    (project.state / ".gitignore").unlink()
    git("add", "-A", cwd=project.root)
    staged = git("diff", "--cached", "--name-only", cwd=project.root).stdout.split()
    assert ".brv/state/index.db" in staged
    err = _refused(project.root, project.root)
    assert ("  .brv/state/index.db: is per-machine state (.brv/state/: search index, scoring "
            "signals, logs) and is never committed\n    fix: unstage the folder with "
            "'git rm --cached -r .brv/state' (your files stay on disk)") in err
    assert "  .brv/state/brv.db: is per-machine state" in err
    git("rm", "-q", "--cached", "-r", ".brv/state", cwd=project.root)
    proc = git("commit", "-q", "-m", "ok", cwd=project.root, check=False)
    assert proc.returncode == 0, proc.stderr


def test_a_force_added_state_file_is_refused_as_state(tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    (project.state / "brv.db").write_bytes(b"x")
    git("add", "-f", ".brv/state/brv.db", cwd=project.root)
    err = _refused(project.root, project.root)
    assert "  .brv/state/brv.db: is per-machine state" in err
    assert "excluded from sync" not in err


def test_entries_in_the_layout_still_commit(tmp_path: Path, brv) -> None:
    project: Project = standalone(tmp_path)
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    write(project.tree, "auth/jwt/mfa/policy.md", entry_bytes("Policy"))
    git("add", "-A", cwd=project.tree)
    proc = git("commit", "-q", "-m", "ok", cwd=project.tree, check=False)
    assert proc.returncode == 0, proc.stderr
