"""The merge driver changes as little as possible: hand-written (legacy, commented, CRLF)
knowledge files keep their frontmatter bytes when only bodies changed, and a key-by-key
frontmatter merge keeps unknown keys and invents none."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv

LEGACY_BASE = """---
# written by hand, before brv 1.0
title: 'Token rotation'
importance: 80
tags: [auth, jwt]
createdAt: 2025-01-01T00:00:00Z
---

## Narrative
Refresh tokens rotate.

## Facts
- single use
"""


def _driver(tmp_path: Path, base: str, ours: str, theirs: str, *, crlf: bool = False
            ) -> tuple[int, bytes]:
    """Runs the real driver command (as git would) and returns (exit code, merged bytes)."""
    files = []
    for name, text in (("base", base), ("ours", ours), ("theirs", theirs)):
        path = tmp_path / name
        path.write_bytes((text.replace("\n", "\r\n") if crlf else text).encode())
        files.append(str(path))
    result = run_brv("merge-driver", *files, "auth/jwt/token_rotation.md", cwd=tmp_path)
    return result.exit_code, (tmp_path / "ours").read_bytes()


def test_body_only_changes_keep_the_frontmatter_bytes_and_crlf(tmp_path: Path) -> None:
    ours = LEGACY_BASE.replace("Refresh tokens rotate.", "Refresh tokens rotate on use.")
    theirs = LEGACY_BASE.replace("- single use\n", "- single use\n- 14 day expiry\n")
    code, merged = _driver(tmp_path, LEGACY_BASE, ours, theirs, crlf=True)
    assert code == 0
    expected = LEGACY_BASE.replace("Refresh tokens rotate.", "Refresh tokens rotate on use.")
    expected = expected.replace("- single use\n", "- single use\n- 14 day expiry\n")
    assert merged == expected.replace("\n", "\r\n").encode()


def test_key_by_key_merge_keeps_legacy_keys_and_invents_none(tmp_path: Path) -> None:
    ours = LEGACY_BASE.replace("title: 'Token rotation'", "title: 'Refresh token rotation'")
    theirs = LEGACY_BASE.replace("tags: [auth, jwt]", "tags: [auth, jwt, security]")
    code, merged = _driver(tmp_path, LEGACY_BASE, ours, theirs)
    assert code == 0
    text = merged.decode()
    assert "# written by hand, before brv 1.0\n" in text
    assert "title: 'Refresh token rotation'\n" in text  # ours' quoting kept
    assert "importance: 80\n" in text
    assert "createdAt: 2025-01-01T00:00:00Z\n" in text
    assert "security" in text
    for invented in ("summary", "keywords", "related", "updatedAt"):
        assert f"{invented}:" not in text


def test_a_key_removed_on_one_side_stays_removed(tmp_path: Path) -> None:
    ours = LEGACY_BASE.replace("importance: 80\n", "")
    theirs = LEGACY_BASE.replace("Refresh tokens rotate.", "Rotate.").replace(
        "title: 'Token rotation'", "title: 'Rotation'")
    code, merged = _driver(tmp_path, LEGACY_BASE, ours, theirs)
    assert code == 0
    text = merged.decode()
    assert "importance" not in text
    assert "title: 'Rotation'\n" in text
    assert "Rotate.\n" in text


def test_both_sides_changing_one_key_is_still_a_conflict(tmp_path: Path) -> None:
    ours = LEGACY_BASE.replace("importance: 80", "importance: 90")
    theirs = LEGACY_BASE.replace("importance: 80", "importance: 70")
    code, merged = _driver(tmp_path, LEGACY_BASE, ours, theirs)
    assert code == 1
    assert b"<<<<<<< ours\nimportance: 90\n=======\nimportance: 70\n>>>>>>> theirs\n" in merged
