"""Entry paths given from the project root (``.brv/context-tree/a/b/c.md``, as ``git status``
prints them) are accepted wherever a tree path is."""

from __future__ import annotations

from conftest import run_brv

from brv_vc.tree.project import Project

FROM_ROOT = ".brv/context-tree/auth/jwt/token_rotation.md"


def _entry(project: Project) -> None:
    done = run_brv("curate", "add", "auth/jwt", "--title", "Token rotation",
                   "--content", "Refresh tokens are single use.", cwd=project.root)
    assert done.exit_code == 0, done.stderr


def test_show_accepts_a_path_from_the_project_root(project: Project) -> None:
    _entry(project)
    shown = run_brv("show", FROM_ROOT, "--json", cwd=project.root)
    assert shown.exit_code == 0, shown.stderr
    assert shown.json()["path"] == "auth/jwt/token_rotation.md"
    assert run_brv("show", "./" + FROM_ROOT, cwd=project.root).exit_code == 0


def test_curate_update_and_delete_accept_a_path_from_the_project_root(project: Project) -> None:
    _entry(project)
    done = run_brv("curate", "update", FROM_ROOT, "--summary", "Single use", "--json",
                   cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert done.json()["applied"][0]["file"] == "auth/jwt/token_rotation.md"
    assert 'summary: "Single use"' in (project.tree / "auth/jwt/token_rotation.md").read_text()
    gone = run_brv("curate", "delete", FROM_ROOT, "--reason", "obsolete", cwd=project.root)
    assert gone.exit_code == 0, gone.stderr
    assert not (project.tree / "auth/jwt/token_rotation.md").exists()


def test_other_hidden_segments_are_still_refused(project: Project) -> None:
    _entry(project)
    refused = run_brv("show", ".brv/state/brv.db", cwd=project.root)
    assert refused.exit_code == 1
    assert "hidden or invalid segment '.brv'" in refused.stderr
