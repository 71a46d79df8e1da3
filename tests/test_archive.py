"""The archive: stub + lossless full copy, candidates, restore byte for byte, bad input."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from conftest import snapshot
from summary_support import small_tree, write_entry

from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import sidecar
from brv_vc.lifecycle.scoring import Signals
from brv_vc.services.derived.summaries import summarize
from brv_vc.summary.archive_files import write_archive
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state

NOW = datetime(2026, 6, 1, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BRV_NOW", "2026-06-01T00:00:00Z")


STUB_KEYS = ["evicted_at", "evicted_importance", "original_path", "original_token_count",
             "points_to", "title", "type"]


def test_archive_then_restore_byte_for_byte(project: Project, brv) -> None:
    small_tree(project)
    original = write_entry(project, "auth/jwt/old_draft.md", "Old Draft",
                           summary="HMAC signing before RS256.", updated="2026-01-01T00:00:00Z")
    summarize(project, NOW)
    conn = open_state(project)
    sidecar.record_added(conn, ["auth/jwt/old_draft.md"], NOW.timestamp())
    conn.close()

    result = brv("archive", "auth/jwt/old_draft.md", "--json", cwd=project.root,)
    assert result.exit_code == 0, result.stderr
    record = result.json()["record"]
    assert record["stub_path"] == "_archived/auth/jwt/old_draft.stub.md"
    tree = project.tree
    assert not (tree / "auth/jwt/old_draft.md").exists()
    assert not (tree / "auth/jwt/old_draft.abstract.md").exists()
    assert (tree / "_archived/auth/jwt/old_draft.full.md").read_bytes() == original
    stub = (tree / "_archived/auth/jwt/old_draft.stub.md").read_text()
    head, body = stub[4:].split("\n---\n", 1)
    assert [line.split(":")[0] for line in head.splitlines()] == STUB_KEYS
    assert 'evicted_at: "2026-06-01T00:00:00Z"\n' in head
    assert "evicted_importance: 50.0\n" in head
    assert 'original_path: "auth/jwt/old_draft.md"\n' in head
    assert f"original_token_count: {count_tokens(original.decode())}\n" in head
    assert 'points_to: "_archived/auth/jwt/old_draft.full.md"' in head
    assert "type: archive_stub" in head
    assert "HMAC signing before RS256." in body
    assert "`brv restore auth/jwt/old_draft.md`" in body
    assert count_tokens(body.split("\n\nArchived by brv.")[0]) <= 220
    conn = open_state(project)
    assert sidecar.get_many(conn, ["auth/jwt/old_draft.md"]) == {}
    conn.close()
    assert "old_draft" not in (tree / "auth/jwt/_index.md").read_text()

    back = brv("restore", "auth/jwt/old_draft.md", cwd=project.root)
    assert back.exit_code == 0, back.stderr
    assert "restored auth/jwt/old_draft.md" in back.stdout
    assert (tree / "auth/jwt/old_draft.md").read_bytes() == original
    assert not (tree / "_archived").exists()
    conn = open_state(project)
    signals = sidecar.get_many(conn, ["auth/jwt/old_draft.md"])["auth/jwt/old_draft.md"]
    conn.close()
    assert (signals.importance, signals.maturity, signals.access_count) == (50.0, "draft", 0)
    assert "old_draft" in (tree / "auth/jwt/_index.md").read_text()


def test_candidates_use_the_sidecar_or_defaults_decayed_from_updated_at(project: Project,
                                                                        brv) -> None:
    write_entry(project, "a/b/stale.md", "Stale", updated="2026-01-01T00:00:00Z")  # 151 days
    write_entry(project, "a/b/recent.md", "Recent", updated="2026-05-20T00:00:00Z")
    write_entry(project, "a/b/loved.md", "Loved", updated="2026-01-01T00:00:00Z")
    write_entry(project, "a/b/faded.md", "Faded", updated="2026-05-30T00:00:00Z")
    conn = open_state(project)
    stamp = NOW.timestamp()
    sidecar.put_many(conn, {
        "a/b/loved.md": Signals(importance=95.0, maturity="core", updated_at=stamp,
                                scored_at=stamp),
        "a/b/faded.md": Signals(importance=20.0, updated_at=stamp, scored_at=stamp),
    })
    conn.close()
    result = brv("archive", "--candidates", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    rows = result.json()["candidates"]
    assert [(r["path"], r["signals"]) for r in rows] == [
        ("a/b/faded.md", "sidecar"), ("a/b/stale.md", "defaults"),
    ]
    assert rows[1]["importance"] == round(50 * 0.995 ** 151, 1)
    text = brv("archive", "--candidates", cwd=project.root).stdout
    assert "a/b/stale.md" in text
    assert "archive one with: brv archive PATH" in text


def test_write_archive_writes_stub_and_full_only(project: Project) -> None:
    original = write_entry(project, "a/b/keep.md", "Keep Me")
    record = write_archive(project, "a/b/keep.md", original, importance=22.44, now=NOW)
    assert record.evicted_importance == 22.4
    assert (project.tree / "a/b/keep.md").read_bytes() == original
    assert (project.tree / record.full_path).read_bytes() == original
    assert re.search(r"^evicted_importance: 22.4$", (project.tree / record.stub_path).read_text(),
                     re.M)


def test_bad_input_changes_nothing(project: Project, brv) -> None:
    small_tree(project)
    summarize(project, NOW)
    before = snapshot(project.root)
    cases = [
        (("archive", "auth/jwt/missing.md"), 1, "no entry at 'auth/jwt/missing.md'"),
        (("archive", "auth/context.md"), 1, "'auth/context.md' is not a knowledge entry"),
        (("archive", "../outside.md"), 1, "leaves the context tree"),
        (("restore", "auth/jwt/never.md"), 1, "nothing archived at 'auth/jwt/never.md'"),
        (("archive",), 2, "give either an entry PATH or --candidates"),
    ]
    for args, code, message in cases:
        result = brv(*args, cwd=project.root)
        assert result.exit_code == code, (args, result.stderr)
        assert message in result.stderr, result.stderr
        assert snapshot(project.root) == before


def test_restore_refuses_to_overwrite(project: Project, brv) -> None:
    original = write_entry(project, "a/b/twice.md", "Twice")
    assert brv("archive", "a/b/twice.md", cwd=project.root).exit_code == 0
    write_entry(project, "a/b/twice.md", "Twice", summary="A new one.")
    before = snapshot(project.root)
    result = brv("restore", "_archived/a/b/twice.stub.md", "--json", cwd=project.root)
    assert result.exit_code == 1
    assert result.json()["error"]["code"] == "conflict"
    assert "already exists at 'a/b/twice.md'" in result.json()["error"]["message"]
    assert snapshot(project.root) == before
    # archiving the new one would overwrite the older archive: refused, nothing changed
    refused = brv("archive", "a/b/twice.md", cwd=project.root)
    assert refused.exit_code == 1
    assert "another version of 'a/b/twice.md' is already archived" in refused.stderr
    assert snapshot(project.root) == before
    (project.tree / "a/b/twice.md").unlink()
    assert brv("restore", "_archived/a/b/twice.stub.md", cwd=project.root).exit_code == 0
    assert (project.tree / "a/b/twice.md").read_bytes() == original


def test_a_stub_is_found_under_its_entry_title(project: Project, brv) -> None:
    write_entry(project, "auth/jwt/token_storage.md", "Token storage",
                summary="Tokens live in an httpOnly cookie.")
    result = brv("archive", "auth/jwt/token_storage.md", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    stub = (project.tree / "_archived/auth/jwt/token_storage.stub.md").read_text()
    assert 'title: "Token storage"\n' in stub
    found = brv("search", "token storage", "--json", cwd=project.root)
    assert found.exit_code == 0, found.stderr
    hits = [r for r in found.json()["results"] if r["path"].startswith("_archived/")]
    assert [r["title"] for r in hits] == ["Token storage"]


def test_the_ghost_cue_of_a_long_entry_fills_its_220_token_budget(project: Project) -> None:
    topics = ["rotation", "storage", "revocation", "audience", "expiry", "signing", "clock skew",
              "key discovery"]
    narrative = "\n\n".join(
        f"### {topic.title()}\n" + " ".join(
            f"The {topic} rule number {i} keeps tokens of service {i} safe under load."
            for i in range(1, 9)
        )
        for topic in topics
    )
    original = write_entry(project, "auth/jwt/long_guide.md", "Long guide",
                           summary="Everything about our JWT handling.", narrative=narrative)
    assert count_tokens(original.decode()) > 1000
    record = write_archive(project, "auth/jwt/long_guide.md", original, importance=20.0,
                           now=NOW)
    stub = (project.tree / record.stub_path).read_text()
    cue = stub.split("\n---\n", 1)[1].split("\n\nArchived by brv.")[0].strip()
    assert 180 <= count_tokens(cue) <= 220
    assert cue.startswith("# Archived: Long guide\n\nEverything about our JWT handling.")
    assert "Key entities:" in cue
    # a short entry is not padded
    short = write_entry(project, "auth/jwt/short.md", "Short", summary="Tiny.")
    small = write_archive(project, "auth/jwt/short.md", short, importance=20.0, now=NOW)
    assert count_tokens((project.tree / small.stub_path).read_text()) < 200
