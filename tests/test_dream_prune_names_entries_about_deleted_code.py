"""Dream's prune proposes (for review) the entries whose every linked code file was deleted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from code_surfaces_support import CODE, ENTRY, commit_at, linked_entry
from hooks_support import git, in_project, write

from brv_vc.services import dream
from brv_vc.tree.project import Project

NOW = datetime(2026, 2, 15, tzinfo=UTC)
KEPT = "crypto/signing/keys.md"


def _project(tmp: Path) -> Project:
    """Two entries linked to code, written 2026-01-01; review on."""
    project = in_project(tmp)
    write(project.root, ".brv/config.yaml", "version: 1\nreview:\n  enabled: true\n")
    write(project.root, CODE, "export const ttl = 24;\n")
    write(project.root, "src/auth/keys.ts", "export const alg = 'RS256';\n")
    write(project.tree, ENTRY, linked_entry())
    write(project.tree, KEPT, linked_entry("Signing keys", files=("src/auth/keys.ts",),
                                           note="Keys rotate yearly; the old one verifies."))
    git("add", "-A", cwd=project.root)
    commit_at(project.root, "code and knowledge", "2026-01-01T00:00:00+00:00")
    return project


def _delete(project: Project, when: datetime) -> None:
    git("rm", "-q", CODE, cwd=project.root)
    commit_at(project.root, "drop the old tokens", when.isoformat())


def _prune(result) -> list[dict]:
    return [op for op in result.operations if op["operation"] == "prune"]


def test_an_entry_whose_code_was_deleted_weeks_ago_is_proposed_for_review(
        tmp_path: Path) -> None:
    project = _project(tmp_path)
    _delete(project, NOW - timedelta(days=41))
    result = dream.dream(project, NOW, force=True)
    ops = _prune(result)
    assert [(op["action"], op["file"]) for op in ops] == [("ARCHIVE", ENTRY)]
    assert ops[0]["reason"].startswith(
        f"every code file it describes was deleted ({CODE}; last 41 days ago")
    assert ops[0]["needsReview"] is True
    assert (project.tree / KEPT).exists()


def test_a_recent_deletion_or_a_surviving_file_keeps_the_entry_out(tmp_path: Path) -> None:
    project = _project(tmp_path)
    _delete(project, NOW - timedelta(days=10))  # within DEAD_CODE_DAYS: maybe a revert
    assert _prune(dream.dream(project, NOW, force=True)) == []

    (tmp_path / "other").mkdir()
    other = _project(tmp_path / "other")
    both = linked_entry(files=(CODE, "src/auth/keys.ts"))
    write(other.tree, ENTRY, both)
    git("add", "-A", cwd=other.root)
    commit_at(other.root, "tokens name both files", "2026-01-02T00:00:00+00:00")
    _delete(other, NOW - timedelta(days=41))  # keys.ts lives on
    assert _prune(dream.dream(other, NOW, force=True)) == []
