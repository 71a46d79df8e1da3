"""brv show on everything search can return (stubs, summaries) and on archived or misplaced
entries; brv relations PATH; brv index warns about markdown outside the layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import snapshot
from test_show import linked  # noqa: F401  (the fixture)

from brv_vc.tree.project import Project

RULE = "knowledge lives in domain/topic/entry.md or domain/topic/subtopic/entry.md"
STUB = "_archived/kb/topic/old_idea.stub.md"


@pytest.fixture
def archived(project: Project, brv) -> Project:
    for args in (
        ("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea"),
        ("curate", "add", "kb/topic", "--title", "New idea", "--content", "see"),
        ("archive", "kb/topic/old_idea.md"),
    ):
        assert brv(*args, cwd=project.root).exit_code == 0
    return project


def test_show_reads_a_stub_that_search_returns(archived: Project, brv) -> None:
    found = brv("search", "platypus", "--json", cwd=archived.root).json()
    assert [r["path"] for r in found["results"]] == [STUB]
    before = snapshot(archived.root)
    result = brv("show", STUB, "--json", cwd=archived.root)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    assert data["kind"] == "archive_stub"
    assert data["title"] == "Archived: kb/topic/old_idea.md"
    assert data["frontmatter"]["original_path"] == "kb/topic/old_idea.md"
    assert "platypus idea" in data["body"]
    assert data["signals"] is None
    assert data["notes"] == [
        f"{STUB} is the archive stub of kb/topic/old_idea.md (searchable; the entry itself is "
        "archived): bring it back with 'brv restore kb/topic/old_idea.md'"
    ]
    text = brv("show", STUB, cwd=archived.root)
    assert text.exit_code == 0
    assert "brv restore kb/topic/old_idea.md" in text.stderr
    assert "original_path: kb/topic/old_idea.md" in text.stdout
    assert snapshot(archived.root) == before


def test_show_reads_a_summary(archived: Project, brv) -> None:
    result = brv("show", "kb/topic/_index.md", cwd=archived.root)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("Summary of kb/topic/  (kb/topic/_index.md)")
    assert "New idea" in result.stdout
    assert ("kb/topic/_index.md is the derived summary of kb/topic/ (brv regenerates it from "
            "the entries; edit those instead)") in result.stderr


@pytest.mark.parametrize("path", ["kb/topic/old_idea.md", "kb/topic/old_idea"])
@pytest.mark.parametrize("command", ["show", "relations"])
def test_an_archived_entry_points_to_restore(archived: Project, brv, path: str,
                                             command: str) -> None:
    before = snapshot(archived.root)
    result = brv(command, path, cwd=archived.root)
    assert result.exit_code == 1
    assert f"'kb/topic/old_idea.md' is archived (its stub is {STUB})" in result.stderr
    assert "hint: bring it back with 'brv restore kb/topic/old_idea.md'" in result.stderr
    assert snapshot(archived.root) == before


def test_show_warns_about_a_file_outside_the_layout(project: Project, brv) -> None:
    (project.tree / "auth").mkdir()
    (project.tree / "auth/auth_overview.md").write_text(
        '---\ntitle: "Auth overview"\n---\n\nMFA is mandatory.\n')
    result = brv("show", "auth/auth_overview.md", cwd=project.root)
    assert result.exit_code == 0
    assert "MFA is mandatory." in result.stdout
    assert ("brv: warning: auth/auth_overview.md is outside the layout (it sits directly in "
            f"the domain folder auth/): {RULE}, so brv never indexes or searches it"
            ) in result.stderr


@pytest.mark.parametrize(("rel", "where"), [
    ("auth/auth_overview.md", "it sits directly in the domain folder auth/"),
    ("notes.md", "it sits at the root of the context tree"),
    ("a/b/c/d/deep.md", "it is 4 folders deep; the most is 3 (domain/topic/subtopic)"),
])
def test_index_warns_about_files_outside_the_layout(project: Project, brv, rel: str,
                                                    where: str) -> None:
    path: Path = project.tree / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('---\ntitle: "Stray"\n---\n\nMFA is mandatory.\n')
    warning = f"brv: warning: ignored {rel}: is outside the layout ({where}): {RULE}"
    first = brv("search", "mandatory", cwd=project.root)  # the automatic sync: once
    assert warning in first.stderr
    assert warning not in brv("search", "mandatory", cwd=project.root).stderr
    result = brv("index", cwd=project.root)  # brv index: every time
    assert result.exit_code == 0
    assert warning in result.stderr
    data = brv("index", "--json", cwd=project.root).json()
    assert [m["path"] for m in data["misplaced"]] == [rel]
    assert data["misplaced"][0]["reason"].startswith(f"is outside the layout ({where})")


def test_relations_of_an_entry(linked: Project, brv) -> None:  # noqa: F811
    assert brv("index", cwd=linked.root).exit_code == 0
    result = brv("relations", "auth/jwt/rotation.md", "--json", cwd=linked.root)
    assert result.exit_code == 0, result.stderr
    assert result.json() == {
        "ok": True,
        "version": 1,
        "path": "auth/jwt/rotation.md",
        "relations": [
            {"target": "auth/jwt/lifetime.md", "resolves": True},
            {"target": "auth/sessions", "resolves": True},
            {"target": "auth/jwt/lifetime", "resolves": True},
            {"target": "auth/missing/nothing.md", "resolves": False},
        ],
        "backlinks": ["auth/jwt/lifetime.md", "billing/x/other.md"],
        "notes": [],
    }
    text = brv("relations", "auth/jwt/rotation", cwd=linked.root)
    assert text.stdout.splitlines() == [
        "auth/jwt/rotation.md", "Relations:", "  -> auth/jwt/lifetime.md",
        "  -> auth/sessions", "  -> auth/jwt/lifetime", "  -> auth/missing/nothing.md  (dangling)",
        "Backlinks:", "  <- auth/jwt/lifetime.md", "  <- billing/x/other.md",
    ]
    one = brv("relations", "auth/jwt/rotation.md", "--dangling", cwd=linked.root)
    assert one.stdout.strip() == "auth/jwt/rotation.md -> auth/missing/nothing.md"


def test_relations_needs_a_path_or_dangling(linked: Project, brv) -> None:  # noqa: F811
    result = brv("relations", cwd=linked.root)
    assert result.exit_code == 2
    assert "brv relations needs an entry PATH or --dangling" in result.stderr
    missing = brv("relations", "auth/jwt/none.md", cwd=linked.root)
    assert missing.exit_code == 1
    assert "no entry at 'auth/jwt/none.md'" in missing.stderr


def test_the_first_search_of_a_new_project_builds_the_index_silently(project: Project,
                                                                     brv) -> None:
    result = brv("search", "token", cwd=project.root)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert (project.state / "index.db").is_file()
