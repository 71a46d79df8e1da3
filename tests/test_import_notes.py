"""``brv import``: basic-memory, Obsidian and ByteRover folders become entries via curate."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from conftest import snapshot

from brv_vc.format.entry import parse_entry
from brv_vc.services.importers import import_notes
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def basic_memory(root: Path) -> None:
    write(root, "engineering/auth/token-rotation.md",
          "---\ntitle: Token Rotation\ntype: note\npermalink: engineering/token-rotation\n"
          "tags:\n- auth\n- security\ncreated: 2025-11-02\n---\n\n# Token Rotation\n\n"
          "Refresh tokens are single-use.\n\n## Relations\n- relates_to [[Session Store]]\n")
    write(root, "engineering/db/session-store.md",
          "---\ntitle: Session Store\npermalink: engineering/session-store\ntags: db, redis\n"
          "---\n\nSessions live in Postgres. See memory://engineering/token-rotation\n")
    write(root, "inbox.md", "---\ntitle: Inbox\n---\nLoose thoughts.\n")


def obsidian(root: Path) -> None:
    write(root, ".obsidian/app.json", "{}")
    write(root, "Projects/Website/Launch plan.md",
          "# Launch plan\n\nShip on Monday. #launch #web/frontend\n\nSee [[Checklist|the list]] "
          "and [[Projects/Website/Retro]].\n\n```\n#not-a-tag [[not a link]]\n```\n")
    write(root, "Projects/Website/Checklist.md", "---\ntags: [launch]\n---\n- [ ] DNS\n")
    write(root, "Projects/Website/Retro.md", "---\naliases: [retro]\n---\nWhat went well.\n")


def entry(project: Project, path: str):
    return parse_entry((project.tree / path).read_bytes(), file=path)


def test_a_basic_memory_folder_round_trips_titles_tags_and_links(project: Project,
                                                                 tmp_path: Path) -> None:
    source = tmp_path / "bm"
    basic_memory(source)
    result = import_notes(project, source, NOW, flavour="basic-memory")
    assert result.ok
    assert result.found == 3
    placed = {i.source: i.path for i in result.imported}
    assert placed == {
        "engineering/auth/token-rotation.md": "engineering/auth/token_rotation.md",
        "engineering/db/session-store.md": "engineering/db/session_store.md",
        "inbox.md": "notes/general/inbox.md",
    }
    rotation = entry(project, "engineering/auth/token_rotation.md")
    assert rotation.title == "Token Rotation"
    assert rotation.tags == ("auth", "security")
    assert rotation.related == ("engineering/db/session_store.md",)
    assert "# Token Rotation" not in rotation.body  # the H1 became the title
    store = entry(project, "engineering/db/session_store.md")
    assert store.tags == ("db", "redis")
    assert store.related == ("engineering/auth/token_rotation.md",)  # memory:// permalink
    again = import_notes(project, source, NOW, flavour="basic-memory")
    assert again.ok  # a second import updates instead of failing


def test_an_obsidian_vault_keeps_inline_tags_and_wiki_links(project: Project, brv,
                                                           tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    obsidian(vault)
    result = brv("import", str(vault), "--from", "obsidian", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    plan = entry(project, "projects/website/launch_plan.md")
    assert plan.title == "Launch plan"
    assert plan.tags == ("launch", "web/frontend")  # fenced code is not read for tags
    assert plan.related == ("projects/website/checklist.md", "projects/website/retro.md")
    found = brv("search", "ship monday launch", "--json", cwd=project.root).json()
    assert found["results"][0]["path"] == "projects/website/launch_plan.md"


def test_notes_that_cannot_be_imported_are_listed_and_nothing_is_imported(
        project: Project, brv, tmp_path: Path) -> None:
    source = tmp_path / "bad"
    basic_memory(source)
    write(source, "engineering/broken.md", "---\ntitle: [unclosed\n---\nx\n")
    (source / "engineering/blob.md").write_bytes(b"\x00\x01binary")
    write(source, "engineering/auth/token-rotation-copy.md", "---\ntitle: Token Rotation\n---\n")
    before = snapshot(project.tree)
    result = brv("import", str(source), "--from", "basic-memory", cwd=project.root)
    assert result.exit_code == 1
    assert "engineering/broken.md: frontmatter is not valid YAML" in result.stderr
    assert "engineering/blob.md: a binary file" in result.stderr
    assert "has the same title in the same folder" in result.stderr
    assert "so none was" in result.stderr
    assert snapshot(project.tree) == before
    dry = brv("import", str(source / "engineering" / "db"), "--dry-run", "--json",
              cwd=project.root)
    assert dry.exit_code == 0
    assert dry.json()["dry_run"] is True
    assert snapshot(project.tree) == before
    missing = brv("import", str(tmp_path / "nowhere"), cwd=project.root)
    assert missing.exit_code == 1
    assert "is not a folder" in missing.stderr


def test_links_that_climb_out_of_the_tree_never_resolve(seeded: Project, tmp_path: Path) -> None:
    write(seeded.root, "secret.md", "---\ntitle: Secret\n---\nhunter2\n")
    write(seeded.root, ".brv/outside.md", "---\ntitle: Outside\n---\nx\n")
    os.symlink(seeded.root / "secret.md", seeded.tree / "auth/jwt/leak.md")
    source = tmp_path / "notes"
    write(source, "team/a/climber.md",
          "---\ntitle: Climber\nrelated: ../outside.md, ../../secret.md\n---\n"
          "See [[../../secret]], [[../outside]], [[auth/jwt/../../../../secret]], "
          "[[/etc/passwd]], [[auth/jwt/leak]] and [[auth/jwt/token_rotation]].\n")
    result = import_notes(seeded, source, NOW)
    assert result.ok
    assert [i.related for i in result.imported] == [("auth/jwt/token_rotation.md",)]
    assert entry(seeded, "team/a/climber.md").related == ("auth/jwt/token_rotation.md",)
