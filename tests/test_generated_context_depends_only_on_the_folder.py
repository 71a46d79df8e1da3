"""A generated ``context.md`` is drawn from its folder's path alone: different first entries
write the same bytes, it names no entry, and deleting or merging entries leaves it as it is."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv

from brv_vc.services.init import init_project
from brv_vc.tree.generated import context_text
from brv_vc.tree.project import Project

FOLDERS = ("auth", "auth/jwt", "auth/jwt/refresh")


def _add(project: Project, folder: str, title: str, summary: str, tags: str) -> None:
    done = run_brv("curate", "add", folder, "--title", title, "--summary", summary,
                   "--content", "Body text.", "--tags", tags, "--related", "api/rest/paging.md",
                   cwd=project.root)
    assert done.exit_code == 0, done.stderr


def test_different_first_entries_write_the_same_context_files(project: Project,
                                                              tmp_path: Path) -> None:
    other = Project(tmp_path / "other")
    init_project(other.root)
    _add(project, "auth/jwt/refresh", "Zanzibar tokens", "Quokka rotation", "zebra")
    _add(other, "auth/jwt/refresh", "Lifetimes", "Fifteen minutes", "okapi")
    for folder in FOLDERS:
        data = (project.tree / folder / "context.md").read_bytes()
        assert data == (other.tree / folder / "context.md").read_bytes()
        assert data.decode() == context_text(folder)
        for word in ("Zanzibar", "Quokka", "zebra", "paging"):
            assert word not in data.decode()


def test_deleting_or_merging_entries_leaves_context_files_alone(project: Project) -> None:
    _add(project, "auth/jwt", "Zanzibar tokens", "Quokka rotation", "quokka")
    _add(project, "auth/jwt", "Token lifetime", "Fifteen minutes", "quokka")
    _add(project, "auth/jwt", "Token audience", "One per service", "quokka")
    before = {f: (project.tree / f / "context.md").read_bytes() for f in FOLDERS[:2]}
    assert b"Zanzibar" not in before["auth/jwt"]
    for command in (("merge", "auth/jwt/zanzibar_tokens.md", "--into",
                     "auth/jwt/token_lifetime.md"),
                    ("delete", "auth/jwt/token_audience.md")):
        done = run_brv("curate", *command, "--reason", "tidy", cwd=project.root)
        assert done.exit_code == 0, done.stderr
        assert {f: (project.tree / f / "context.md").read_bytes() for f in FOLDERS[:2]} == before
    assert "No results" in run_brv("search", "zanzibar", cwd=project.root).stdout
