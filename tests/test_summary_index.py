"""``_index.md``: seed 000 frontmatter, regeneration only along changed paths, removal,
hand edits, determinism, escalation."""

from __future__ import annotations

import os
import re
from datetime import UTC, datetime
from pathlib import Path

from summary_support import derived_files, small_tree, write_entry

from bench.gen_tree import generate
from brv_vc.format.tokens import count_tokens
from brv_vc.services.derived.refreshing import refresh
from brv_vc.services.derived.summaries import refresh_summaries, summarize
from brv_vc.summary.budgets import ABSTRACT_TOKENS, TRUNCATED
from brv_vc.summary.digest import digest
from brv_vc.summary.documents import Document
from brv_vc.summary.engine import EXTRACTIVE
from brv_vc.summary.engine import generate as generate_text
from brv_vc.tree.project import Project

NOW = datetime(2026, 2, 1, tzinfo=UTC)
KEYS = ["children_hash", "compression_ratio", "condensation_order", "covers",
        "covers_token_total", "summary_level", "token_count", "type"]


def _frontmatter(path: Path) -> tuple[list[str], str, str]:
    text = path.read_text()
    head, body = text[4:].split("\n---\n", 1)
    keys = [line.split(":")[0] for line in head.splitlines() if not line.startswith(" ")]
    return keys, head, body


def test_every_folder_gets_an_index_with_seed_frontmatter(project: Project) -> None:
    small_tree(project)
    result = summarize(project, NOW)
    tree = project.tree
    assert set(result.indexes_written) == {
        "_index.md", "auth/_index.md", "auth/jwt/_index.md", "auth/jwt/refresh/_index.md",
        "auth/oauth/_index.md", "db/_index.md", "db/models/_index.md",
    }
    expected = {"_index.md": 3, "auth/_index.md": 2, "auth/jwt/_index.md": 1,
                "auth/jwt/refresh/_index.md": 0}
    for rel, order in expected.items():
        keys, head, body = _frontmatter(tree / rel)
        assert keys == KEYS
        assert f"condensation_order: {order}\n" in head + "\n"
        assert f"summary_level: d{order}" in head
        assert "type: summary" in head
        assert re.search(r'^children_hash: "[0-9a-f]{64}"$', head, re.M)
        tokens = int(re.search(r"token_count: (\d+)", head).group(1))
        assert tokens == count_tokens(body.lstrip("\n"))
    _, head, body = _frontmatter(tree / "auth/jwt/_index.md")
    covers = "covers:\n  - refresh/_index.md\n  - token_generation.md\n  - token_rotation.md\n"
    assert covers in head
    assert "Token Generation" in body
    assert "About token rotation." in body
    _, head, body = _frontmatter(tree / "auth/_index.md")
    assert "  - context.md\n" in head
    assert "Covers authentication patterns." in body
    total = int(re.search(r"covers_token_total: (\d+)", head).group(1))
    ratio = float(re.search(r"compression_ratio: ([0-9.]+)", head).group(1))
    tokens = int(re.search(r"token_count: (\d+)", head).group(1))
    assert ratio == round(tokens / total, 2)


def test_one_change_rewrites_only_its_ancestors(project: Project) -> None:
    small_tree(project)
    summarize(project, NOW)
    indexes = sorted(p for p in project.tree.rglob("_index.md"))
    old = 1_000_000_000
    for path in indexes:
        os.utime(path, (old, old))
    before = {p: p.read_bytes() for p in indexes}

    write_entry(project, "auth/jwt/refresh/refresh_rules.md", "Refresh Rules",
                summary="Refresh tokens are single-use now.")
    report = refresh_summaries(project, ["auth/jwt/refresh/refresh_rules.md"], NOW)

    ancestors = {"auth/jwt/refresh/_index.md", "auth/jwt/_index.md", "auth/_index.md", "_index.md"}
    assert set(report.written) == ancestors
    touched = {p.relative_to(project.tree).as_posix() for p in indexes
               if p.stat().st_mtime != old}
    assert touched == ancestors
    changed = {p.relative_to(project.tree).as_posix() for p in indexes
               if p.read_bytes() != before[p]}
    assert changed == ancestors
    # a second refresh of the same change finds nothing to do
    again = refresh_summaries(project, ["auth/jwt/refresh/refresh_rules.md"], NOW)
    assert again.written == ()


def test_emptied_folder_loses_its_index(project: Project) -> None:
    small_tree(project)
    summarize(project, NOW)
    (project.tree / "auth/oauth/code_flow.md").unlink()
    (project.tree / "auth/oauth/code_flow.abstract.md").unlink()
    report = refresh(project, ["auth/oauth/code_flow.md"], NOW)
    assert report.problems == ()
    assert not (project.tree / "auth/oauth/_index.md").exists()
    assert not (project.tree / "auth/oauth/code_flow.overview.md").exists()
    assert "oauth" not in (project.tree / "auth/_index.md").read_text()
    # the whole domain emptied: its summary goes too, and the root forgets it
    for path in sorted((project.tree / "db").rglob("*.md")):
        path.unlink()
    assert refresh(project, ["db/models/user_model.md"], NOW).problems == ()
    assert not (project.tree / "db/_index.md").exists()
    assert "db/_index.md" not in (project.tree / "_index.md").read_text()


def test_hand_edited_summary_is_regenerated_with_a_warning(project: Project, brv) -> None:
    small_tree(project)
    assert brv("summarize", cwd=project.root).exit_code == 0
    target = project.tree / "auth/jwt/_index.md"
    original = target.read_bytes()
    target.write_text(original.decode() + "\nmy own notes\n")
    result = brv("summarize", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert "auth/jwt/_index.md was edited by hand; regenerated" in result.stderr
    assert target.read_bytes() == original
    quiet = brv("summarize", cwd=project.root)
    assert "edited by hand" not in quiet.stderr


def test_hand_edited_abstract_and_overview_are_regenerated_with_a_warning(
    project: Project, brv
) -> None:
    small_tree(project)
    assert brv("summarize", cwd=project.root).exit_code == 0
    edited = sorted(project.tree.rglob("*.abstract.md"))[0]
    overview = edited.with_name(edited.name.replace(".abstract.md", ".overview.md"))
    originals = edited.read_bytes(), overview.read_bytes()
    edited.write_text("hand\n")
    overview.write_bytes(originals[1] + b"more by hand\n")
    result = brv("summarize", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    rel = edited.relative_to(project.tree).as_posix()
    assert f"{rel} was edited by hand; regenerated" in result.stderr
    assert (edited.read_bytes(), overview.read_bytes()) == originals
    quiet = brv("summarize", cwd=project.root)
    assert "edited by hand" not in quiet.stderr


def test_two_fresh_trees_give_the_same_bytes(tmp_path: Path) -> None:
    trees = []
    for name in ("one", "two"):
        generate(tmp_path / name, 120, seed=7)
        summarize(Project(tmp_path / name), NOW)
        trees.append(derived_files(tmp_path / name / ".brv/context-tree"))
    assert trees[0] == trees[1]
    assert sum(1 for rel in trees[0] if rel.endswith(".abstract.md")) == 120
    assert "_manifest.json" in trees[0]


def test_entry_too_large_for_any_budget_still_fits() -> None:
    title = "Gigantic " + "word " * 3000
    info = digest(b"", stem="x")
    doc = Document("a/b/x.md", info.__class__(title=title, summary="s " * 5000), "")
    fitted = generate_text(EXTRACTIVE, "abstract", doc, ABSTRACT_TOKENS)
    assert count_tokens(fitted.text) <= ABSTRACT_TOKENS
    assert fitted.level == TRUNCATED
    assert fitted.text.startswith("Gigantic word")


def test_huge_entry_on_disk_gets_fitting_siblings(project: Project) -> None:
    facts = "\n".join(f"- **k{i}**: {'long statement ' * 40} [project]" for i in range(300))
    write_entry(project, "big/topic/huge.md", "Huge " + "Title " * 200, facts=facts)
    result = summarize(project, NOW)
    assert result.failed == ()
    abstract = (project.tree / "big/topic/huge.abstract.md").read_text()
    overview = (project.tree / "big/topic/huge.overview.md").read_text()
    assert count_tokens(abstract.strip()) <= 80
    assert count_tokens(overview.strip()) <= 1500
    index = (project.tree / "big/topic/_index.md").read_text()
    body = index.split("\n---\n", 1)[1]
    assert count_tokens(body.strip()) <= 800


def test_refresh_without_a_change_list_scans_everything_once(project: Project) -> None:
    small_tree(project)
    first = refresh(project, None, NOW)
    assert first.problems == ()
    assert (project.tree / "auth/jwt/refresh/_index.md").exists()
    assert (project.tree / "db/models/user_model.abstract.md").exists()
    assert (project.tree / "_manifest.json").exists()
    before = derived_files(project.tree)
    again = refresh_summaries(project, None, NOW)
    assert again.written == ()
    assert derived_files(project.tree) == before


def test_archive_folder_and_hidden_folders_get_no_summary(project: Project) -> None:
    small_tree(project)
    (project.tree / "_archived/auth").mkdir(parents=True)
    (project.tree / "_archived/auth/x.stub.md").write_text("stub")
    (project.tree / ".git").mkdir()
    summarize(project, NOW)
    assert not (project.tree / "_archived/_index.md").exists()
    assert not (project.tree / "_archived/auth/_index.md").exists()
    assert not (project.tree / ".git/_index.md").exists()
    assert "_archived" not in (project.tree / "_index.md").read_text()


def test_commands_have_help_with_examples(brv, tmp_path: Path) -> None:
    for name in ("summarize", "manifest", "archive", "restore"):
        result = brv(name, "--help", cwd=tmp_path)
        assert result.exit_code == 0
        assert "Example:" in result.stdout
        assert "--json" in result.stdout
