"""MERGE and links: the target keeps no self-link and no link to the source it absorbed,
other entries are pointed at the target (found through the search index), and --dry-run
rewrites nothing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from conftest import snapshot

from brv_vc.format.entry import parse_entry
from brv_vc.services.curate import run_batch
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def entry(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


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


def _kb(project: Project) -> None:
    run_batch(project, [
        {"type": "ADD", "path": "kb/n", "title": title, "content": title.lower(),
         "reason": "t", **({"related": related} if related else {})}
        for title, related in [("Src", []), ("Tgt", []), ("Fan", ["KB/N/Src.md"])]
    ] + [{"type": "ADD", "path": "kb/other", "title": "Bystander", "reason": "t",
          "content": "Mentions kb/n/src.md in prose, not as a link."}], NOW)


MERGE = [{"type": "MERGE", "path": "kb/n/src.md", "target": "kb/n/tgt.md",
          "reason": "dup"}]


def test_merge_reads_only_the_entries_the_index_says_link_to_the_source(
        project: Project, monkeypatch) -> None:
    from brv_vc.services.curate import view

    _kb(project)
    bystander = project.tree / "kb/other/bystander.md"
    before = bystander.read_bytes(), bystander.stat().st_mtime_ns
    asked: list[list[str]] = []
    real = view.View.linking_to
    monkeypatch.setattr(view.View, "linking_to",
                        lambda self, rel: asked.append(real(self, rel)) or asked[-1])
    monkeypatch.setattr(view.View, "entries", lambda self: pytest.fail("read every entry"))
    assert run_batch(project, MERGE, NOW, dry_run=True).ok
    assert asked == [["kb/n/fan.md"]]  # the linking entry only; the bystander is never read
    assert run_batch(project, MERGE, NOW).ok
    assert entry(project, "kb/n/fan.md").related == ("kb/n/tgt.md",)
    assert (bystander.read_bytes(), bystander.stat().st_mtime_ns) == before


def test_merge_without_a_search_index_reads_the_entries_and_relinks(project: Project) -> None:
    _kb(project)
    index_db_path(project).unlink()
    assert run_batch(project, MERGE, NOW).ok
    assert entry(project, "kb/n/fan.md").related == ("kb/n/tgt.md",)
