"""``brv tree``: the hierarchy with entry counts; derived files and context.md not counted."""

from __future__ import annotations

from conftest import snapshot

from brv_vc.tree.project import Project


def curate_some(brv, project: Project) -> None:
    for folder, title in [
        ("auth/jwt", "Rotation"),
        ("auth/jwt", "Signing"),
        ("auth/jwt/refresh", "Reuse"),
        ("billing/plans", "Tiers"),
    ]:
        assert (
            brv(
                "curate", "add", folder, "--title", title, "--content", "x", cwd=project.root
            ).exit_code
            == 0
        )
    # derived files must not count as entries
    (project.tree / "auth/jwt/_index.md").write_text("summary")
    (project.tree / "auth/jwt/rotation.abstract.md").write_text("abstract")
    (project.tree / "_archived/auth/jwt").mkdir(parents=True)
    (project.tree / "_archived/auth/jwt/old.stub.md").write_text("stub")
    (project.tree / "_manifest.json").write_text("{}")


def test_tree_text(project: Project, brv) -> None:
    curate_some(brv, project)
    result = brv("tree", cwd=project.root)
    assert result.exit_code == 0
    assert result.stdout == (
        "context-tree/ (4 entries)\n"
        "├── auth/ (3 entries)\n"
        "│   └── jwt/ (3 entries)\n"
        "│       ├── refresh/ (1 entry)\n"
        "│       │   └── reuse.md\n"
        "│       ├── rotation.md\n"
        "│       └── signing.md\n"
        "└── billing/ (1 entry)\n"
        "    └── plans/ (1 entry)\n"
        "        └── tiers.md\n"
    )


def test_tree_json_of_a_subfolder(project: Project, brv) -> None:
    curate_some(brv, project)
    data = brv("tree", "auth/jwt", "--json", cwd=project.root).json()
    assert data["ok"] is True
    assert (data["path"], data["count"], data["entries"]) == (
        "auth/jwt",
        3,
        ["rotation.md", "signing.md"],
    )
    assert data["has_context"] is True
    assert [(f["path"], f["count"]) for f in data["folders"]] == [("auth/jwt/refresh", 1)]


def test_tree_folders_only_and_empty_tree(project: Project, brv) -> None:
    assert brv("tree", cwd=project.root).stdout == "context-tree/ (0 entries)\n"
    curate_some(brv, project)
    out = brv("tree", "--folders-only", cwd=project.root).stdout
    assert ".md" not in out
    assert "refresh/ (1 entry)" in out


def test_tree_of_a_missing_or_escaping_folder(project: Project, brv) -> None:
    before = snapshot(project.root)
    missing = brv("tree", "nope", cwd=project.root)
    assert missing.exit_code == 1
    assert "no folder 'nope' in the context tree" in missing.stderr
    escaping = brv("tree", "../..", cwd=project.root)
    assert escaping.exit_code == 1
    assert "leaves the context tree" in escaping.stderr
    assert snapshot(project.root) == before


def test_tree_outside_a_project(tmp_path, brv) -> None:
    result = brv("tree", cwd=tmp_path)
    assert result.exit_code == 1
    assert "not a brv project" in result.stderr
