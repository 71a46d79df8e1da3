"""A ``context.md`` brv wrote from an entry stops naming it once the entry is deleted or
merged away; one people edited keeps their words."""

from __future__ import annotations

from conftest import run_brv

from brv_vc.tree.project import Project


def _add(project: Project, title: str, summary: str) -> None:
    done = run_brv("curate", "add", "auth/jwt", "--title", title, "--summary", summary,
                   "--content", "Body text.", "--tags", "quokka", cwd=project.root)
    assert done.exit_code == 0, done.stderr


def test_delete_removes_the_entry_from_the_generated_context_files(project: Project) -> None:
    _add(project, "Zanzibar tokens", "Quokka rotation")
    topic = project.tree / "auth/jwt/context.md"
    assert "Zanzibar tokens" in topic.read_text()
    done = run_brv("curate", "delete", "auth/jwt/zanzibar_tokens.md", "--reason", "gone",
                   cwd=project.root)
    assert done.exit_code == 0, done.stderr
    for context in (topic, project.tree / "auth/context.md"):
        text = context.read_text()
        assert "Zanzibar" not in text
        assert "Quokka" not in text
    assert "No results" in run_brv("search", "quokka", cwd=project.root).stdout
    assert "No results" in run_brv("search", "zanzibar", cwd=project.root).stdout


def test_merge_source_is_forgotten_too(project: Project) -> None:
    _add(project, "Zanzibar tokens", "Quokka rotation")
    _add(project, "Token lifetime", "Fifteen minutes")
    done = run_brv("curate", "merge", "auth/jwt/zanzibar_tokens.md",
                   "--into", "auth/jwt/token_lifetime.md", "--reason", "one entry",
                   cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert "Zanzibar" not in (project.tree / "auth/jwt/context.md").read_text()


def test_a_context_file_people_edited_is_left_alone(project: Project) -> None:
    _add(project, "Zanzibar tokens", "Quokka rotation")
    topic = project.tree / "auth/jwt/context.md"
    edited = topic.read_text() + "\nOwned by the identity team.\n"
    topic.write_text(edited)
    assert run_brv("curate", "delete", "auth/jwt/zanzibar_tokens.md", "--reason", "gone",
                   cwd=project.root).exit_code == 0
    assert topic.read_text() == edited
