"""Inputs that once crashed brv (exit 3) are refused: exit 1, the input named, nothing changed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from brv_vc.tree.project import Project
from tests.conftest import snapshot


def refused(brv, root: Path, *args: str) -> str:
    before = snapshot(root)
    result = brv(*args, cwd=root)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert "internal error" not in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(root) == before
    return result.stderr


@pytest.mark.parametrize(("args", "what"), [
    (("curate", "--ops", "{dir}"), "operations"),
    (("curate", "add", "api/x", "--title", "T", "--file", "{dir}"), "content"),
    (("dream", "apply", "{dir}"), "decisions"),
])
def test_a_folder_given_as_a_file(project: Project, brv, tmp_path: Path,
                                  args: tuple[str, ...], what: str) -> None:
    folder = tmp_path / "folder"
    folder.mkdir()
    err = refused(brv, project.root, *(a.format(dir=folder) for a in args))
    assert f"{what} file '{folder}' is a folder, not a regular file; nothing was read" in err


@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="needs /proc")
def test_a_file_whose_read_fails(project: Project, brv) -> None:
    err = refused(brv, project.root, "curate", "--ops", "/proc/self/mem")
    assert "operations file '/proc/self/mem' cannot be read: Input/output error" in err
    assert "hint: give a regular file you can read" in err


@pytest.mark.parametrize(("value", "said"), [
    ("9" * 5000, "hold an integer of more than 4,300 digits, too long to read"),
    ("NaN", "hold NaN, which is not a JSON number"),
    ("-Infinity", "hold -Infinity, which is not a JSON number"),
])
def test_numbers_json_cannot_hold(project: Project, brv, tmp_path: Path, value: str,
                                  said: str) -> None:
    ops = tmp_path / "ops.json"
    ops.write_text('[{"type": "ADD", "path": "api/auth", "title": "T", "content": "x", '
                   f'"reason": "r", "tags": [{value}]}}]')
    err = refused(brv, project.root, "curate", "--ops", str(ops))
    assert f"the operations {said}; nothing was applied" in err
    assert f"file: {ops}" in err


def test_an_import_of_a_note_whose_name_is_not_utf8(project: Project, brv,
                                                    tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "good.md").write_text("# Good\n\ntext\n")
    (Path(os.fsdecode(bytes(notes))) / os.fsdecode(b"caf\xe9.md")).write_text("# Cafe\n")
    err = refused(brv, project.root, "import", str(notes))
    assert "caf\\xe9.md: its name is not UTF-8" in err
    assert "rename it to UTF-8, or move it out of the folder" in err
    assert "1 of 2 notes cannot be imported, so none was" in err


def test_an_import_names_every_symlink_it_skips(project: Project, brv, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "a").mkdir(parents=True)
    (notes / "a/one.md").write_text("# One\n\ntext\n")
    (notes / "a/two.md").symlink_to("one.md")
    (notes / "elsewhere").symlink_to(tmp_path)
    result = brv("import", str(notes), cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert "skipped 2 symbolic link(s): brv never follows a link in an import" in result.stdout
    assert "  a/two.md\n  elsewhere/\n" in result.stdout
    shown = brv("import", str(notes), "--json", "--dry-run", cwd=project.root).json()
    assert shown["links"] == ["a/two.md", "elsewhere/"]  # type: ignore[index]
