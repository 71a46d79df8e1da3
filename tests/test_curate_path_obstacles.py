"""A folder where curate would write an entry or a context.md, or a file where a folder
belongs, is refused when planning (under --dry-run too): message, exit 1, nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import snapshot

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project

ROT = "auth/jwt/token_rotation.md"


def entry(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


def run_ops(brv, project: Project, tmp_path: Path, ops: list[dict]):
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(ops))
    return brv("curate", "--ops", str(path), cwd=project.root)


ENTRY_FOLDER = "'a/b/u.md' is a folder, not an entry file"


def _refused(brv, project: Project, args: tuple[str, ...], message: str) -> dict:
    """Runs a curate shortcut that must be refused: exit 1, the message, nothing changed."""
    before = snapshot(project.root)
    for extra in ((), ("--dry-run",)):  # --dry-run only plans: the refusal is the plan's
        result = brv("curate", *args, *extra, cwd=project.root)
        assert result.exit_code == 1, result.stdout
        assert f"brv: error: {args[0].upper()} " in result.stderr
        assert message in result.stderr
        assert "Errno" not in result.stderr
        assert "check permissions and disk space" not in result.stderr
        assert snapshot(project.root) == before
    data = brv("curate", *args, "--json", cwd=project.root).json()
    assert data["ok"] is False
    assert snapshot(project.root) == before
    failed = data["applied"][0]
    assert failed["status"] == "failed"
    assert message in failed["message"]
    return failed


@pytest.fixture
def folder_u(project: Project) -> Project:
    (project.tree / "a/b/u.md").mkdir(parents=True)
    (project.tree / "a/b/u.md/stray.txt").write_text("someone's notes")
    return project


@pytest.mark.parametrize(
    ("args", "fix"),
    [
        (("add", "a/b", "--title", "U", "--content", "c"), "move it away or choose another title"),
        (("upsert", "a/b", "--title", "U", "--content", "c"),
         "move it away or choose another title"),
        (("upsert", "a/b/u.md", "--content", "c"), "move it away"),
        (("update", "a/b/u.md", "--content", "c"), "move it away"),
        (("update", "a/b", "--title", "U", "--content", "c"),
         "move it away or choose another title"),
        (("delete", "a/b/u.md", "--reason", "r"), "move it away"),
        (("delete", "a/b", "--title", "U", "--reason", "r"), "move it away"),
    ],
)
def test_a_folder_named_like_the_entry_is_refused(
    folder_u: Project, brv, args: tuple[str, ...], fix: str
) -> None:
    failed = _refused(brv, folder_u, args, f"{ENTRY_FOLDER}; {fix}")
    assert failed["file"] == "a/b/u.md"
    assert "move" in failed["hint"]
    assert (folder_u.tree / "a/b/u.md/stray.txt").read_text() == "someone's notes"


@pytest.mark.parametrize("role", ["source", "target"])
def test_merge_with_a_folder_named_like_an_entry_is_refused(
    folder_u: Project, brv, role: str
) -> None:
    assert brv("curate", "add", "a/b", "--title", "V", "--content", "v",
               cwd=folder_u.root).exit_code == 0
    source, target = ("a/b/u.md", "a/b/v.md") if role == "source" else ("a/b/v.md", "a/b/u.md")
    _refused(brv, folder_u, ("merge", source, "--into", target, "--reason", "r"),
             f"{ENTRY_FOLDER}; move it away")


def test_a_batch_reports_the_folder_and_applies_the_other_operations(
    folder_u: Project, brv, tmp_path: Path
) -> None:
    result = run_ops(brv, folder_u, tmp_path, [
        {"type": "ADD", "path": "a/b", "title": "U", "content": "c", "reason": "r"},
        {"type": "ADD", "path": "a/b", "title": "W", "content": "w", "reason": "r"},
    ])
    assert result.exit_code == 1
    assert f"{ENTRY_FOLDER}; move it away or choose another title" in result.stderr
    assert (folder_u.tree / "a/b/w.md").is_file()
    assert (folder_u.tree / "a/b/u.md").is_dir()


def test_a_folder_deleted_earlier_in_the_batch_is_no_obstacle(
    folder_u: Project, brv, tmp_path: Path
) -> None:
    result = run_ops(brv, folder_u, tmp_path, [
        {"type": "DELETE", "path": "a/b", "reason": "clear the stray folder"},
        {"type": "ADD", "path": "a/b", "title": "U", "content": "c", "reason": "r"},
    ])
    assert result.exit_code == 0, result.stderr
    assert (folder_u.tree / "a/b/u.md").is_file()
    assert entry(folder_u, "a/b/u.md").title == "U"


@pytest.mark.parametrize(
    ("folder", "add_to", "level"),
    [
        ("k/l", "k/l", "topic"),
        ("k", "k/l", "domain"),
        ("k/l/s", "k/l/s", "subtopic"),
        ("k/l", "k/l/new_sub", "topic"),
    ],
)
def test_a_folder_named_context_md_is_refused(
    project: Project, brv, folder: str, add_to: str, level: str
) -> None:
    (project.tree / folder / "context.md").mkdir(parents=True)
    message = f"'{folder}/context.md' is a folder, not the {level}'s context file; move it away"
    for command in ("add", "upsert"):
        _refused(brv, project, (command, add_to, "--title", "W", "--content", "w"), message)
    assert (project.tree / folder / "context.md").is_dir()


def test_an_update_is_not_blocked_by_a_context_md_folder(seeded: Project, brv) -> None:
    """Only a new entry needs the folder's context.md; changing an entry does not."""
    (seeded.tree / "auth/jwt/context.md").unlink()
    (seeded.tree / "auth/jwt/context.md").mkdir()
    result = brv("curate", "update", ROT, "--content", "Changed.", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("file", "add_to"), [("a/b", "a/b"), ("a", "a/b"), ("a/b", "a/b/c")])
def test_a_file_where_a_folder_belongs_is_refused(
    project: Project, brv, file: str, add_to: str
) -> None:
    (project.tree / file).parent.mkdir(parents=True, exist_ok=True)
    (project.tree / file).write_text("not a folder")
    _refused(brv, project, ("add", add_to, "--title", "U", "--content", "c"),
             f"'{file}' is a file, not a folder; move it away or choose another path")
