"""Audit M5 (a new entry requires a title and content) and M6 (MERGE leaves no self-link and
no link to the source it absorbed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import snapshot

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    result = brv(
        "curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "x",
        "--tags", "auth", cwd=project.root,
    )
    assert result.exit_code == 0, result.stderr
    return project


def run_ops(brv, project: Project, tmp_path: Path, ops: list[dict]) -> object:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(ops))
    return brv("curate", "--ops", str(path), cwd=project.root)


def entry(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


# --- M5 ---------------------------------------------------------------------------------------


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


# --- M6 ---------------------------------------------------------------------------------------


def test_merge_drops_the_self_link_and_the_link_to_the_source(project: Project, brv) -> None:
    root = project.root
    for title, content, related in [
        ("Src", "s", "kb/n/tgt.md"),
        ("Tgt", "t", "kb/n/src.md"),
    ]:
        result = brv("curate", "add", "kb/n", "--title", title, "--content", content,
                     "--related", related, cwd=root)
        assert result.exit_code == 0, result.stderr
    result = brv("curate", "merge", "kb/n/src.md", "--into", "kb/n/tgt.md", "--reason", "dup",
                 cwd=root)
    assert result.exit_code == 0, result.stderr
    assert entry(project, "kb/n/tgt.md").related == ()
    dangling = brv("relations", "--dangling", "--json", cwd=root)
    assert dangling.exit_code == 0, dangling.stderr
    assert "kb/n/src.md" not in dangling.stdout


def test_merge_points_other_entries_at_the_target(project: Project, brv) -> None:
    root = project.root
    for folder, title, related in [
        ("kb/n", "Src", "kb/n/other.md"),
        ("kb/n", "Tgt", ""),
        ("kb/m", "Fan", "kb/n/src.md,kb/n/tgt.md"),
        ("kb/m", "Solo", "kb/n/src.md,auth/x.md"),
    ]:
        args = ["curate", "add", folder, "--title", title, "--content", title.lower()]
        result = brv(*args, *(["--related", related] if related else []), cwd=root)
        assert result.exit_code == 0, result.stderr
    relations_only = project.tree / "kb/m/body_links.md"
    relations_only.write_text(
        '---\ntitle: "Body links"\n---\n\n## Narrative\nb\n\n## Relations\n'
        "- @kb/n/src.md\n- @kb/m/fan.md\n"
    )
    solo_updated_at = entry(project, "kb/m/solo.md").updated_at
    result = brv("curate", "merge", "kb/n/src.md", "--into", "kb/n/tgt.md", "--reason", "dup",
                 cwd=root)
    assert result.exit_code == 0, result.stderr
    assert not (project.tree / "kb/n/src.md").exists()
    assert entry(project, "kb/n/tgt.md").related == ("kb/n/other.md",)
    assert entry(project, "kb/m/fan.md").related == ("kb/n/tgt.md",)
    assert entry(project, "kb/m/solo.md").related == ("kb/n/tgt.md", "auth/x.md")
    assert entry(project, "kb/m/solo.md").updated_at == solo_updated_at  # a link fix only
    body = entry(project, "kb/m/body_links.md").body
    assert "@kb/n/tgt.md" in body
    assert "@kb/n/src.md" not in body
    assert "- @kb/m/fan.md" in body


def test_merge_dry_run_does_not_rewrite_links(project: Project, brv) -> None:
    root = project.root
    for title, related in [("Src", ""), ("Tgt", ""), ("Fan", "kb/n/src.md")]:
        args = ["curate", "add", "kb/n", "--title", title, "--content", title.lower()]
        assert brv(*args, *(["--related", related] if related else []), cwd=root).exit_code == 0
    before = snapshot(root)
    result = brv("curate", "merge", "kb/n/src.md", "--into", "kb/n/tgt.md", "--reason", "dup",
                 "--dry-run", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert snapshot(root) == before
