"""Prune walks the code history (the deleted-code question) only once its stale entries are
weighed within the budget: a dream out of budget does not pay for a walk it throws away.
The list it gives is the one it gave before: the deleted-code entries first, then the
stalest others, none twice."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

from code_surfaces_support import CODE, ENTRY, commit_at, linked_entry
from hooks_support import entry_bytes, git, in_project, write

from brv_vc.services.code_links.history import CACHE
from brv_vc.services.dream import prune
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

NOW = datetime(2026, 9, 1, tzinfo=UTC)


def _project(tmp: Path) -> Project:
    """An entry about code deleted 41 days before NOW, and 25 other entries, all untouched
    for 200-225 days (the deleted-code one the stalest of all)."""
    project = in_project(tmp)
    write(project.root, CODE, "export const ttl = 24;\n")
    write(project.tree, ENTRY, linked_entry())
    for n in range(25):
        write(project.tree, f"notes/old/n{n:02}.md", entry_bytes(f"Old note {n}"))
    git("add", "-A", cwd=project.root)
    commit_at(project.root, "code and knowledge", "2026-01-01T00:00:00+00:00")
    git("rm", "-q", CODE, cwd=project.root)
    commit_at(project.root, "drop the old tokens", (NOW - timedelta(days=41)).isoformat())
    for n in range(25):
        when = (NOW - timedelta(days=200 + n)).timestamp()
        os.utime(project.tree / f"notes/old/n{n:02}.md", (when, when))
    when = (NOW - timedelta(days=300)).timestamp()
    os.utime(project.tree / ENTRY, (when, when))
    return project


def test_a_prune_cut_by_the_budget_does_not_walk_the_code_history(tmp_path: Path) -> None:
    project = _project(tmp_path)
    walked = project.state / CACHE
    assert not walked.exists()
    found = prune.candidates(project, entry_paths(project), NOW, set(),
                             should_stop=lambda: True)
    assert found == []
    assert not walked.exists()  # before: walked (and cached), then thrown away


def test_a_budget_that_ends_after_the_last_check_still_spares_the_walk(tmp_path: Path) -> None:
    project = _project(tmp_path)
    asked = iter([False])  # the weighing's one check (entry 0) passes; then the budget is out
    found = prune.candidates(project, entry_paths(project), NOW, set(),
                             should_stop=lambda: next(asked, True))
    assert found == []
    assert not (project.state / CACHE).exists()


def test_a_prune_within_budget_names_deleted_code_first_and_the_stalest_after(
        tmp_path: Path) -> None:
    project = _project(tmp_path)
    found = prune.candidates(project, entry_paths(project), NOW, set())
    assert (project.state / CACHE).exists()
    assert [c[0] for c in found] == [ENTRY, *(f"notes/old/n{n:02}.md"
                                              for n in range(24, 5, -1))]
    assert found[0][3].startswith(f"every code file it describes was deleted ({CODE}")
    assert len(found) == prune.MAX_CANDIDATES
