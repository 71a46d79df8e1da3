"""`brv vc status` in in-project mode adopts the git status started before the CLI imports."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import brv_process
from vc_helpers import in_project_app

from brv_vc.services.vc.changes import status
from brv_vc.tree.project import Project
from brv_vc.vc.git import prefetch
from brv_vc.vc.repo import locate

ROT = "auth/jwt/token_rotation.md"


def test_the_prefetched_status_is_the_one_the_service_adopts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed")
    monkeypatch.chdir(app.tree / "auth")
    prefetch.prefetch_status(["vc", "status"])
    assert len(prefetch._prefetched) == 1
    where, command, _ = prefetch._prefetched[0]
    assert where == os.path.realpath(app.root)
    assert command[-2:] == ("--", ".brv/context-tree")
    report = status(locate(Project(app.root)))
    assert prefetch._prefetched == []  # taken, not stopped and run again
    assert [c.path for c in report.unstaged] == [ROT]


def test_a_real_process_reports_what_git_sees(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed")
    (app.root / "app.py").write_text("print('v2')\n")  # code: not knowledge, never listed
    (app.tree / "auth/jwt/new_note.md").write_text("---\ntitle: New\n---\nnew\n")
    result = brv_process("vc", "status", "--json", cwd=app.root)
    assert result.exit_code == 0, result.stderr
    got = result.json()
    assert got["mode"] == "in-project"
    assert got["unstaged"] == [{"change": "modified", "path": ROT, "old": None}]
    assert got["untracked"] == ["auth/jwt/new_note.md"]
