"""brv show and brv relations --dangling: the reference index, read-only."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import snapshot
from retrieval_util import write_entry

from brv_vc.errors import NotFoundError
from brv_vc.services.show import dangling_relations, show_entry
from brv_vc.tree.project import Project

NOW = datetime(2026, 1, 20, tzinfo=UTC)


@pytest.fixture
def linked(project: Project) -> Project:
    write_entry(
        project,
        "auth/jwt/rotation.md",
        "Token Rotation",
        "Tokens rotate.",
        related=("auth/jwt/lifetime.md", "auth/sessions"),
        relation_lines=("auth/jwt/lifetime", "auth/missing/nothing.md"),
    )
    write_entry(
        project,
        "auth/jwt/lifetime.md",
        "Token Lifetime",
        "15 minutes.",
        related=("@auth/jwt/rotation.md", "billing/gone"),
    )
    write_entry(project, "auth/sessions/cookies.md", "Cookies", "HttpOnly.")
    write_entry(project, "billing/x/other.md", "Other", "No links.", related=("auth/jwt/rotation",))
    return project


def test_show_entry_with_backlinks_dangling_and_signals(linked: Project) -> None:
    shown = show_entry(linked, "auth/jwt/rotation", now=NOW)
    assert shown.path == "auth/jwt/rotation.md"
    assert shown.title == "Token Rotation"
    assert shown.frontmatter["related"] == ["auth/jwt/lifetime.md", "auth/sessions"]
    assert "Tokens rotate." in shown.body
    assert shown.backlinks == ("auth/jwt/lifetime.md", "billing/x/other.md")
    assert shown.dangling == ("auth/missing/nothing.md",)
    assert shown.signals.maturity == "draft"
    assert shown.signals.importance <= 50
    assert shown.signals.stored is False


def test_dangling_across_the_tree(linked: Project, brv) -> None:
    found = dangling_relations(linked).dangling
    assert [(d.source, d.target) for d in found] == [
        ("auth/jwt/lifetime.md", "billing/gone"),
        ("auth/jwt/rotation.md", "auth/missing/nothing.md"),
    ]
    text = brv("relations", "--dangling", cwd=linked.root)
    assert text.exit_code == 0
    assert "auth/jwt/lifetime.md -> billing/gone" in text.stdout
    data = brv("relations", "--dangling", "--json", cwd=linked.root).json()
    assert len(data["dangling"]) == 2


def test_backlinks_follow_edits(linked: Project) -> None:
    write_entry(linked, "billing/x/other.md", "Other", "No links now.")
    assert show_entry(linked, "auth/jwt/rotation.md", now=NOW).backlinks == (
        "auth/jwt/lifetime.md",
    )
    write_entry(linked, "auth/missing/nothing.md", "Nothing", "Now it exists.")
    assert show_entry(linked, "auth/jwt/rotation.md", now=NOW).dangling == ()


def test_show_never_writes_the_tree_nor_records_a_hit(linked: Project, brv) -> None:
    before = snapshot(linked.root)
    result = brv("show", "auth/jwt/rotation.md", cwd=linked.root)
    assert result.exit_code == 0
    assert "Backlinks: auth/jwt/lifetime.md, billing/x/other.md" in result.stdout
    assert "Dangling relations: auth/missing/nothing.md" in result.stdout
    assert "Signals: importance" in result.stdout
    assert snapshot(linked.root) == before
    again = brv("show", "auth/jwt/rotation.md", "--json", cwd=linked.root).json()
    assert again["signals"]["access_count"] == 0


def test_show_errors(linked: Project, brv) -> None:
    with pytest.raises(NotFoundError):
        show_entry(linked, "auth/jwt/none.md", now=NOW)
    before = snapshot(linked.root)
    missing = brv("show", "auth/jwt/none.md", cwd=linked.root)
    assert missing.exit_code == 1
    assert "no entry at 'auth/jwt/none.md'" in missing.stderr
    escape = brv("show", "../../etc/passwd", cwd=linked.root)
    assert escape.exit_code == 1
    assert "leaves the context tree" in escape.stderr
    (linked.tree / "auth/jwt/bad.md").write_text("---\ntitle: [x\n---\n")
    bad = brv("show", "auth/jwt/bad.md", cwd=linked.root)
    assert bad.exit_code == 1
    assert "malformed YAML" in bad.stderr
    assert snapshot(linked.root) == {
        **before,
        ".brv/context-tree/auth/jwt/bad.md": b"---\ntitle: [x\n---\n",
    }
