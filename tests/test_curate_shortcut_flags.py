"""The group options (--dry-run, --atomic, --ops) with a shortcut, --dry-run on the shortcuts
themselves, and shortcut errors that name the option the user typed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from conftest import snapshot

from brv_vc.tree.project import Project


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    result = brv(
        "curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "x",
        cwd=project.root,
    )
    assert result.exit_code == 0, result.stderr
    return project


def log_rows(project: Project) -> int:
    conn = sqlite3.connect(project.state / "brv.db")
    try:
        return int(conn.execute("SELECT COUNT(*) FROM curate_log").fetchone()[0])
    finally:
        conn.close()


DRY_RUNS = [
    (("--dry-run", "delete", "auth", "--reason", "just checking"),
     "would delete folder auth (1 entries)"),
    (("delete", "auth", "--reason", "just checking", "--dry-run"),
     "would delete folder auth (1 entries)"),
    (("--dry-run", "add", "ops/ci", "--title", "Pipeline", "--content", "x"),
     "would add ops/ci/pipeline.md"),
    (("add", "ops/ci", "--title", "Pipeline", "--content", "x", "--dry-run"),
     "would add ops/ci/pipeline.md"),
    (("update", "auth/jwt/token_rotation.md", "--content", "y", "--dry-run"),
     "would update auth/jwt/token_rotation.md"),
    (("--dry-run", "upsert", "auth/jwt", "--title", "Token rotation", "--content", "z"),
     "would update auth/jwt/token_rotation.md"),
    (("upsert", "kb/new", "--title", "Fresh", "--content", "z", "--dry-run"),
     "would add kb/new/fresh.md"),
]


@pytest.mark.parametrize(("args", "line"), DRY_RUNS)
def test_dry_run_with_a_shortcut_writes_nothing(
    seeded: Project, brv, args: tuple[str, ...], line: str
) -> None:
    before, rows = snapshot(seeded.root), log_rows(seeded)
    result = brv("curate", *args, cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == line
    assert "(dry run: nothing was written)" in result.stdout
    assert snapshot(seeded.root) == before
    assert log_rows(seeded) == rows
    data = brv("curate", *args, "--json", cwd=seeded.root).json()
    assert data["dry_run"] is True
    assert data["applied"][0]["message"] == line
    assert snapshot(seeded.root) == before


def test_dry_run_merge_shortcut(seeded: Project, brv) -> None:
    assert brv("curate", "add", "auth/jwt", "--title", "Notes", "--content", "n",
               cwd=seeded.root).exit_code == 0
    before = snapshot(seeded.root)
    result = brv(
        "curate", "merge", "auth/jwt/notes.md", "--into", "auth/jwt/token_rotation.md",
        "--reason", "dup", "--dry-run", cwd=seeded.root,
    )
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        "would merge auth/jwt/notes.md into auth/jwt/token_rotation.md"
    )
    assert snapshot(seeded.root) == before


def test_dry_run_failure_with_a_shortcut_exits_1_and_writes_nothing(
    seeded: Project, brv
) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "--dry-run", "delete", "nothing", "--reason", "r", cwd=seeded.root)
    assert result.exit_code == 1
    assert "no folder at 'nothing' to delete" in result.stderr
    assert snapshot(seeded.root) == before


def test_atomic_with_a_shortcut_is_honoured(seeded: Project, brv) -> None:
    data = brv(
        "curate", "--atomic", "add", "ops/ci", "--title", "Pipeline", "--content", "x", "--json",
        cwd=seeded.root,
    ).json()
    assert data["atomic"] is True
    assert data["ok"] is True
    assert (seeded.tree / "ops/ci/pipeline.md").is_file()


def test_ops_with_a_shortcut_is_a_usage_error(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps(
        [{"type": "ADD", "path": "x/y", "title": "T", "content": "c", "reason": "r"}]
    ))
    before = snapshot(seeded.root)
    result = brv(
        "curate", "--ops", str(ops), "add", "k/l", "--title", "Sub", "--content", "c",
        cwd=seeded.root,
    )
    assert result.exit_code == 2
    assert "--ops and the subcommand 'add' cannot be combined" in result.stderr
    assert "hint: run 'brv curate --ops FILE' alone, or 'brv curate add ...' alone" in (
        result.stderr
    )
    assert snapshot(seeded.root) == before


def test_dry_run_text_output_says_would(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps([
        {"type": "ADD", "path": "a/b", "title": "New", "content": "x", "reason": "r"},
        {"type": "UPDATE", "path": "auth/jwt/token_rotation.md", "content": "y", "reason": "r"},
        {"type": "UPDATE", "path": "auth/jwt/token_rotation.md", "content": "y", "reason": "r"},
        {"type": "DELETE", "path": "a/b/new.md", "reason": "r"},
    ]))
    result = brv("curate", "--ops", str(ops), "--dry-run", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [
        "would add a/b/new.md",
        "would update auth/jwt/token_rotation.md",
        "unchanged auth/jwt/token_rotation.md  (no change: the entry already holds this content)",
        "would delete a/b/new.md",
        "1 added, 1 updated, 0 merged, 1 deleted, 0 failed (dry run: nothing was written)",
    ]


# --- shortcut errors name the option --------------------------------------------------------


def test_too_big_file_names_the_file_option(seeded: Project, brv, tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("x" * 41_000)
    before = snapshot(seeded.root)
    result = brv("curate", "add", "x/y", "--title", "Big", "--file", str(big), cwd=seeded.root)
    assert result.exit_code == 1
    assert f"brv: error: --file {big} is 41,000 characters long; the limit is 40,000" in (
        result.stderr
    )
    assert "operations[0]" not in result.stderr
    assert "schema" not in result.stderr
    assert "hint: split the knowledge into several entries" in result.stderr
    assert snapshot(seeded.root) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("add", "x/y", "--title", "T", "--content", "c" * 40_001),
         "--content is 40,001 characters long; the limit is 40,000"),
        (("add", "x/y", "--title", "T" * 301, "--content", "c"),
         "--title is 301 characters long; the limit is 300"),
        (("upsert", "x/y", "--title", "T", "--content", "c", "--summary", "s" * 2001),
         "--summary is 2,001 characters long; the limit is 2,000"),
        (("update", "auth/jwt/token_rotation.md", "--reason", ""),
         "--reason must not be empty"),
    ],
)
def test_shortcut_schema_errors_name_the_option(
    seeded: Project, brv, args: tuple[str, ...], message: str
) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", *args, cwd=seeded.root)
    assert result.exit_code == 1
    assert f"brv: error: {message}" in result.stderr
    assert "operations[0]" not in result.stderr
    assert "curate-ops.schema.json" not in result.stderr
    assert snapshot(seeded.root) == before
    data = brv("curate", *args, "--json", cwd=seeded.root).json()
    assert data["ok"] is False
    assert message in data["error"]["message"]


def test_update_of_a_folder_without_title_names_the_option(seeded: Project, brv) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "update", "auth/jwt", "--content", "c", cwd=seeded.root)
    assert result.exit_code == 1
    assert "--title" in result.stderr
    assert '"title"' not in result.stderr
    assert snapshot(seeded.root) == before


def test_batch_wording_is_kept_for_ops_files(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text(json.dumps(
        [{"type": "ADD", "path": "a/b", "title": "T", "reason": "r", "content": "x" * 40_001}]
    ))
    result = brv("curate", "--ops", str(ops), cwd=seeded.root)
    assert result.exit_code == 1
    assert "invalid operation at operations[0].content" in result.stderr
    assert "schemas/curate-ops.schema.json" in result.stderr
