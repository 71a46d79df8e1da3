"""curate refuses a field ``brv validate`` would reject, so it never writes what brv cannot read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from brv_vc.tree.project import Project
from tests.conftest import snapshot


@pytest.mark.parametrize(("key", "value"), [
    ("createdAt", "2024-13-45T00:00:00Z"),
    ("updatedAt", "2024-02-30T10:00:00Z"),
    ("createdAt", "2024-01-01T25:61:00Z"),
])
def test_a_date_that_matches_the_pattern_but_is_no_date_is_refused(
        project: Project, brv, tmp_path: Path, key: str, value: str) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"type": "ADD", "path": "api/auth", "title": "Bad date",
                                "content": "x", "reason": "r", key: value}]))
    before = snapshot(project.root)
    result = brv("curate", "--ops", str(ops), cwd=project.root)
    assert result.exit_code == 1, result.stdout
    assert f"field '{key}' is not an ISO 8601 timestamp: '{value}'" in result.stderr
    assert f'hint: write it as {key}: "2025-03-18T10:00:00Z"' in result.stderr
    assert snapshot(project.root) == before


def test_an_update_with_a_bad_date_leaves_the_entry_readable(project: Project, brv,
                                                              tmp_path: Path) -> None:
    assert brv("curate", "add", "api/auth", "--title", "Good", "--content", "x",
               cwd=project.root).exit_code == 0
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"type": "UPDATE", "path": "api/auth/good.md", "content": "y",
                                "updatedAt": "2025-00-10T00:00:00Z", "reason": "r"}]))
    before = snapshot(project.root)
    result = brv("curate", "--ops", str(ops), "--json", cwd=project.root)
    assert result.exit_code == 1
    failed = result.json()["applied"][0]  # type: ignore[index]
    assert failed["status"] == "failed"
    assert "field 'updatedAt' is not an ISO 8601 timestamp" in failed["message"]
    assert snapshot(project.root) == before
    assert brv("validate", cwd=project.root).exit_code == 0


def test_a_real_date_is_kept_and_validates(project: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([{"type": "ADD", "path": "api/auth", "title": "Leap day",
                                "content": "x", "reason": "r",
                                "createdAt": "2024-02-29T00:00:00Z"}]))
    assert brv("curate", "--ops", str(ops), cwd=project.root).exit_code == 0
    assert 'createdAt: "2024-02-29T00:00:00Z"' in (project.tree / "api/auth/leap_day.md").read_text()
    assert brv("validate", cwd=project.root).exit_code == 0
