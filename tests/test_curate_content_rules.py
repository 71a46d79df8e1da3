"""What content an operation must carry: a new entry needs a title and content, and an UPDATE
must change something and cannot leave the entry without content."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import snapshot

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project

ROT = "auth/jwt/token_rotation.md"


def run_ops(brv, project: Project, tmp_path: Path, ops: list[dict]) -> object:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(ops))
    return brv("curate", "--ops", str(path), cwd=project.root)


def entry(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


# --- a new entry requires a title and content -------------------------------------------------


def test_add_without_content_in_an_ops_file_is_refused(
    seeded: Project, brv, tmp_path: Path
) -> None:
    before = snapshot(seeded.root)
    result = run_ops(brv, seeded, tmp_path, [
        {"type": "ADD", "path": "k/l", "title": "Fine", "content": "c", "reason": "r"},
        {"type": "ADD", "path": "q/r", "title": "X", "reason": "r"},
    ])
    assert result.exit_code == 1
    assert (
        "brv: error: invalid operation at operations[1]: ADD needs content: give one of "
        "'content', 'rawConcept', 'narrative' or 'facts' (a new entry requires a title and "
        "content); nothing was applied"
    ) in result.stderr
    assert 'hint: add "content": "markdown ..." to the operation' in result.stderr
    assert snapshot(seeded.root) == before


@pytest.mark.parametrize("kind", ["ADD", "UPSERT"])
def test_a_new_entry_with_blank_content_fails_the_operation(
    seeded: Project, brv, tmp_path: Path, kind: str
) -> None:
    before = snapshot(seeded.root)
    result = run_ops(brv, seeded, tmp_path, [
        {"type": kind, "path": "q/r", "title": "X", "content": "  \n", "reason": "r"},
    ])
    assert result.exit_code == 1
    assert (
        f"brv: error: {kind} q/r: {kind} would create 'q/r/x.md' with no content; "
        "a new entry requires a title and content"
    ) in result.stderr
    assert "--content TEXT or --file FILE" in result.stderr
    assert snapshot(seeded.root) == before


def test_upsert_that_creates_without_content_is_refused(
    seeded: Project, brv, tmp_path: Path
) -> None:
    before = snapshot(seeded.root)
    result = run_ops(brv, seeded, tmp_path, [
        {"type": "UPSERT", "path": "q/r", "title": "X", "tags": ["a"], "reason": "r"},
    ])
    assert result.exit_code == 1
    assert "UPSERT would create 'q/r/x.md' with no content" in result.stderr
    assert snapshot(seeded.root) == before
    shortcut = brv("curate", "upsert", "q/r", "--title", "X", cwd=seeded.root)
    assert shortcut.exit_code == 1
    assert "UPSERT would create 'q/r/x.md' with no content" in shortcut.stderr
    assert snapshot(seeded.root) == before


def test_upsert_and_update_of_an_existing_entry_may_change_fields_only(
    seeded: Project, brv, tmp_path: Path
) -> None:
    body = entry(seeded, "auth/jwt/token_rotation.md").body
    result = run_ops(brv, seeded, tmp_path, [
        {"type": "UPSERT", "path": "auth/jwt", "title": "Token rotation", "tags": ["jwt"],
         "reason": "r"},
        {"type": "UPDATE", "path": "auth/jwt/token_rotation.md", "summary": "S", "reason": "r"},
    ])
    assert result.exit_code == 0, result.stderr
    updated = entry(seeded, "auth/jwt/token_rotation.md")
    assert updated.tags == ("jwt",)
    assert updated.summary == "S"
    assert updated.body == body


def test_add_with_structured_content_only_is_accepted(
    seeded: Project, brv, tmp_path: Path
) -> None:
    result = run_ops(brv, seeded, tmp_path, [
        {"type": "ADD", "path": "q/r", "title": "X", "reason": "r",
         "facts": [{"statement": "Tokens last 15 minutes"}]},
    ])
    assert result.exit_code == 0, result.stderr
    assert "Tokens last 15 minutes" in entry(seeded, "q/r/x.md").body


def test_add_shortcut_without_content_is_refused(seeded: Project, brv) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "add", "kb/n", "--title", "Nothing here", cwd=seeded.root)
    assert result.exit_code == 1
    assert (
        "brv: error: brv curate add needs content: give --content TEXT or --file FILE"
        in result.stderr
    )
    assert "hint: a new entry requires a title and content" in result.stderr
    assert snapshot(seeded.root) == before


@pytest.mark.parametrize("source", ["--content", "--file"])
def test_add_shortcut_with_empty_content_names_the_option(
    seeded: Project, brv, tmp_path: Path, source: str
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("\n")
    value = str(empty) if source == "--file" else "   "
    label = f"--file {empty}" if source == "--file" else "--content"
    before = snapshot(seeded.root)
    result = brv("curate", "add", "kb/n", "--title", "T", source, value, cwd=seeded.root)
    assert result.exit_code == 1
    assert f"brv: error: {label} is empty; a new entry needs content" in result.stderr
    assert snapshot(seeded.root) == before


# --- an UPDATE must change something, and cannot empty the content ----------------------------


NOTHING = (
    "nothing to update: give --content, --file, --title, --summary, --tags, --keywords or "
    "--related"
)


@pytest.mark.parametrize(
    "extra", [(), ("--reason", "just because"), ("--dry-run",), ("--json",)]
)
def test_update_with_nothing_to_change_is_a_usage_error(
    seeded: Project, brv, extra: tuple[str, ...]
) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "update", ROT, *extra, cwd=seeded.root)
    assert result.exit_code == 2
    if "--json" in extra:
        assert result.json()["error"]["message"] == NOTHING
    else:
        assert f"brv: error: {NOTHING}" in result.stderr
        assert "unchanged" not in result.stdout
    assert snapshot(seeded.root) == before


@pytest.mark.parametrize("command", ["update", "upsert"])
@pytest.mark.parametrize("content", ["", "   \n\t"])
@pytest.mark.parametrize("extra", [(), ("--tags", "kept,out")])
def test_empty_content_on_update_is_refused(
    seeded: Project, brv, command: str, content: str, extra: tuple[str, ...]
) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", command, ROT, "--content", content, *extra, cwd=seeded.root)
    assert result.exit_code == 1
    why = "it would leave the entry without content" if command == "update" else (
        "an entry needs content"
    )
    assert f"brv: error: --content is empty; {why}" in result.stderr
    assert "hint: " in result.stderr
    assert snapshot(seeded.root) == before
    data = brv("curate", command, ROT, "--content", content, *extra, "--json",
               cwd=seeded.root).json()
    assert data["ok"] is False
    assert data["error"]["key"] == "--content"
    assert snapshot(seeded.root) == before


def test_empty_file_on_update_is_refused(seeded: Project, brv, tmp_path: Path) -> None:
    empty = tmp_path / "empty.md"
    empty.write_text("\n\n")
    before = snapshot(seeded.root)
    result = brv("curate", "update", ROT, "--file", str(empty), cwd=seeded.root)
    assert result.exit_code == 1
    assert f"brv: error: --file {empty} is empty; it would leave the entry without content" in (
        result.stderr
    )
    assert snapshot(seeded.root) == before


@pytest.mark.parametrize("kind", ["UPDATE", "UPSERT"])
def test_batch_update_with_nothing_or_empty_content_fails(
    seeded: Project, brv, tmp_path: Path, kind: str
) -> None:
    before = snapshot(seeded.root)
    result = run_ops(brv, seeded, tmp_path, [
        {"type": kind, "path": ROT, "reason": "r"},
        {"type": kind, "path": ROT, "content": " ", "tags": ["x"], "reason": "r"},
        {"type": kind, "path": ROT, "narrative": {}, "reason": "r"},
    ])
    assert result.exit_code == 1
    assert f"{kind} {ROT}: {kind} of '{ROT}' gives nothing to change" in result.stderr
    assert result.stderr.count(
        f"{kind} of '{ROT}' gives empty content; it would leave the entry without content"
    ) == 2
    assert snapshot(seeded.root) == before


def test_update_with_the_stored_content_still_says_unchanged(seeded: Project, brv) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "update", ROT, "--content", "Stored text.", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[0] == (
        f"unchanged {ROT}  (no change: the entry already holds this content)"
    )
    assert snapshot(seeded.root) == before


def test_update_of_one_field_still_works(seeded: Project, brv) -> None:
    result = brv("curate", "update", ROT, "--summary", "Rotated weekly", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    stored = entry(seeded, ROT)
    assert stored.summary == "Rotated weekly"
    assert "Stored text." in stored.body
