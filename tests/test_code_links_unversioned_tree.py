"""A tree under no git of its own (no brv vc init): an entry's updatedAt says when it was
written, and code commits after it make it stale."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from brv_vc.services import code_links
from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

ENTRY = "---\ntitle: Jwt\nupdatedAt: \"2026-01-01T00:00:30Z\"\n---\n**Files:**\n- src/jwt.py\n"


def _commit(root: Path, message: str, date: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    subprocess.run(["git", "add", "-A"], cwd=root, check=True)
    subprocess.run(["git", "commit", "-qm", message], cwd=root, env=env, check=True)


def test_updated_at_stands_for_the_last_commit(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".git/info/exclude").write_text(".brv/\n")
    (root / "src/jwt.py").write_text("a\n")
    _commit(root, "before the entry", "2026-01-01T00:00:10Z")
    init_project(root)
    project = Project(root)
    (project.tree / "auth/jwt").mkdir(parents=True)
    (project.tree / "auth/jwt/jwt.md").write_text(ENTRY)
    report = code_links.stale(project)
    assert report.mode == "unversioned"
    assert report.entries == ()
    (root / "src/jwt.py").write_text("b\n")
    _commit(root, "after the entry", "2026-01-01T00:01:00Z")
    (item,) = code_links.stale(project).entries
    assert item.last_commit is not None
    assert item.last_commit.subject == "after the entry"
    (about,) = code_links.about(project, ["src/jwt.py"]).paths[0].direct
    assert about.freshness.changes_since == 1
