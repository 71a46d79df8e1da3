"""Entries deleted or moved by hand (or by plain git) take their derived files with them:
the first command whose sync notices the removal regenerates the folders' ``_index.md``,
deletes the orphan abstract/overview, prunes emptied folders, and the manifest stops listing
them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from summary_support import write_entry

from brv_vc.tree.project import Project


def _curate(brv, root: Path, path: str, title: str, content: str) -> None:
    result = brv("curate", "add", path, "--title", title, "--content", content, cwd=root)
    assert result.exit_code == 0, result.stderr


def _two_entries(project: Project, brv) -> None:
    _curate(brv, project.root, "data/db", "Schema migrations", "Forward only migrations.")
    _curate(brv, project.root, "ops/deploy", "Canary releases", "Five percent canary.")
    assert (project.tree / "data/db/schema_migrations.abstract.md").exists()
    assert "schema_migrations.md" in (project.tree / "data/db/_index.md").read_text()
    assert "data/" in (project.tree / "_index.md").read_text()


def _manifest_paths(brv, root: Path) -> str:
    result = brv("manifest", "--json", cwd=root)
    assert result.exit_code == 0, result.stderr
    return json.dumps(result.json())


def test_an_entry_removed_by_hand_leaves_no_stale_derived_files(project: Project, brv) -> None:
    _two_entries(project, brv)
    (project.tree / "data/db/schema_migrations.md").unlink()
    result = brv("search", "canary", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    # as after 'brv curate delete': the folder keeps its context.md, and its summary no
    # longer lists the entry; the orphan siblings are gone
    folder = project.tree / "data/db"
    assert sorted(p.name for p in folder.iterdir()) == ["_index.md", "context.md"]
    assert "schema_migrations" not in (folder / "_index.md").read_text()
    assert "0 entries" in (project.tree / "data/_index.md").read_text()
    listing = _manifest_paths(brv, project.root)
    assert "schema_migrations" not in listing
    assert "ops/deploy/canary_releases" in listing


def test_folders_a_removal_empties_are_pruned(project: Project, brv) -> None:
    write_entry(project, "kb/notes/alpha.md", "Alpha")
    write_entry(project, "ops/runbooks/beta.md", "Beta")
    assert brv("summarize", cwd=project.root).exit_code == 0
    assert brv("index", cwd=project.root).exit_code == 0
    assert (project.tree / "kb/notes/alpha.abstract.md").exists()
    (project.tree / "kb/notes/alpha.md").unlink()
    result = brv("search", "beta", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert not (project.tree / "kb").exists()
    assert "kb/" not in (project.tree / "_index.md").read_text()
    assert "kb/" not in _manifest_paths(brv, project.root)


def test_brv_index_follows_the_removal_it_reports(project: Project, brv) -> None:
    _two_entries(project, brv)
    _curate(brv, project.root, "data/db", "Indexes", "Index every foreign key.")
    (project.tree / "data/db/schema_migrations.md").unlink()
    result = brv("index", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert result.json()["removed"] == ["data/db/schema_migrations.md"]
    folder = project.tree / "data/db"
    assert "schema_migrations" not in (folder / "_index.md").read_text()
    assert "indexes.md" in (folder / "_index.md").read_text()
    assert sorted(p.name for p in folder.iterdir()) == [
        "_index.md", "context.md", "indexes.abstract.md", "indexes.md", "indexes.overview.md",
    ]


def test_the_manifest_alone_follows_a_removal(project: Project, brv) -> None:
    _two_entries(project, brv)
    (project.tree / "data/db/schema_migrations.md").unlink()
    listing = _manifest_paths(brv, project.root)
    assert "schema_migrations" not in listing
    assert not (project.tree / "data/db/schema_migrations.abstract.md").exists()
    assert "schema_migrations" not in (project.tree / "data/db/_index.md").read_text()


def test_a_moved_entry_is_listed_by_its_new_folder_only(project: Project, brv) -> None:
    _two_entries(project, brv)
    (project.tree / "ops/rollout").mkdir()
    shutil.move(project.tree / "ops/deploy/canary_releases.md",
                project.tree / "ops/rollout/canary_releases.md")
    result = brv("search", "canary", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    assert "canary_releases" not in (project.tree / "ops/deploy/_index.md").read_text()
    assert not (project.tree / "ops/deploy/canary_releases.abstract.md").exists()
    assert "canary_releases.md" in (project.tree / "ops/rollout/_index.md").read_text()
    assert "rollout/" in (project.tree / "ops/_index.md").read_text()
    listing = _manifest_paths(brv, project.root)
    assert "ops/deploy/canary" not in listing
    assert "ops/rollout/canary_releases.md" in listing
