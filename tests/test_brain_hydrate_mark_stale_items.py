"""``brv brain`` and ``brv hydrate`` mark the items whose linked code changed since."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_surfaces_support import (
    CODE,
    ENTRY,
    LATER,
    commit_at,
    hooked_in_project,
    hooked_standalone,
)
from conftest import run_brv
from hooks_support import write

MARK = "**stale**: its code changed since"


@pytest.fixture(autouse=True)
def _fresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The entries were written on 2026-01-01: the brain shows them a day later."""
    monkeypatch.setenv("BRV_NOW", "2026-01-02T00:00:00Z")


@pytest.mark.parametrize("mode", ["in-project", "standalone"])
def test_brain_marks_a_stale_item_and_its_etag_changes(tmp_path: Path, mode: str) -> None:
    project = (hooked_in_project if mode == "in-project" else hooked_standalone)(tmp_path)
    before = run_brv("brain", "--json", cwd=project.root).json()
    assert before["stale"] == []
    assert ENTRY in before["paths"]
    assert MARK not in before["document"]

    write(project.root, CODE, "export const ttl = 1;\n")
    commit_at(project.root, "shorter tokens", LATER, "-a", "--no-verify")
    after = run_brv("brain", "--json", cwd=project.root).json()
    assert after["stale"] == [ENTRY]
    line = next(x for x in after["document"].splitlines() if f"`{ENTRY}`" in x)
    assert MARK in line
    assert after["brainHash"] != before["brainHash"]  # an agent holding the old one re-reads
    same = run_brv("brain", "--json", "--if-none-match", after["brainHash"], cwd=project.root)
    assert same.json()["notModified"] is True


def test_hydrate_marks_a_stale_local_item(tmp_path: Path) -> None:
    project = hooked_in_project(tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    commit_at(project.root, "shorter tokens", LATER, "-a", "--no-verify")
    done = run_brv("hydrate", "auth/jwt", "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    data = done.json()
    assert {i["path"]: i["stale"] for i in data["local"]} == {
        ENTRY: True, "auth/jwt/token_rotation.md": False}
    line = next(x for x in data["document"].splitlines() if f"`{ENTRY}`" in x)
    assert MARK in line
