"""Prune's question "whose every code file was deleted?" holds only links to deleted paths.

Issue 37: at 100,000 generated entries the dream's prune step peaked ~130 MB over the rest
of the dream: to find the entries about deleted code it resolved and judged every code link
of the tree, though only an entry linking a path the history deleted can be one. Now only
those entries' links are held and judged, with the same answer.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from code_surfaces_support import CODE, ENTRY, commit_at, linked_entry
from hooks_support import git, in_project, write

from brv_vc.services.code_links.staleness import stale
from brv_vc.services.dream import prune
from brv_vc.tree.project import Project

NOW = datetime(2026, 2, 15, tzinfo=UTC)
LIVE = "src/auth/keys.ts"


def _project(tmp: Path) -> Project:
    """One entry about code deleted 41 days ago, twelve about code that lives on."""
    project = in_project(tmp)
    write(project.root, CODE, "export const ttl = 24;\n")
    write(project.root, LIVE, "export const alg = 'RS256';\n")
    write(project.tree, ENTRY, linked_entry())
    for n in range(12):
        write(project.tree, f"crypto/signing/keys_{n}.md",
              linked_entry(f"Signing keys {n}", files=(LIVE,), note=f"Rotation rule {n}."))
    git("add", "-A", cwd=project.root)
    commit_at(project.root, "code and knowledge", "2026-01-01T00:00:00+00:00")
    write(project.root, LIVE, "export const alg = 'ES256';\n")  # changed, not deleted
    git("rm", "-q", CODE, cwd=project.root)
    git("add", "-A", cwd=project.root)
    commit_at(project.root, "drop the old tokens", (NOW - timedelta(days=41)).isoformat())
    return project


def test_only_entries_linking_deleted_paths_are_judged(tmp_path: Path) -> None:
    project = _project(tmp_path)
    whole = stale(project)
    gone = stale(project, gone_only=True)
    assert whole.linked_entries == 13  # every linked entry held and judged
    assert len(whole.entries) == 13  # the twelve are stale too: their file changed
    assert gone.linked_entries == 1
    assert gone.entries == tuple(e for e in whole.entries if e.reason == "deleted")
    assert [c[0] for c in prune.code_gone(project, NOW)] == [ENTRY]


def test_no_deleted_path_holds_no_link(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    write(project.root, LIVE, "export const alg = 'RS256';\n")
    write(project.tree, ENTRY, linked_entry(files=(LIVE,)))
    git("add", "-A", cwd=project.root)
    commit_at(project.root, "code and knowledge", "2026-01-01T00:00:00+00:00")
    assert stale(project).linked_entries == 1
    assert stale(project, gone_only=True).linked_entries == 0
    assert prune.code_gone(project, NOW) == []
