"""Search and query results carry a ``stale`` mark when their linked code changed; ranking stays."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_surfaces_support import (
    CODE,
    EARLIER,
    ENTRY,
    LATER,
    commit_at,
    hooked_in_project,
    hooked_standalone,
    linked_entry,
)
from conftest import brv_process, run_brv
from hooks_support import git, write

from brv_vc.tree.project import Project

OTHER = "auth/jwt/signing.md"


def _two_entries(project: Project, repo: Path) -> None:
    write(project.tree, OTHER, linked_entry("JWT signing keys", files=("src/auth/keys.ts",),
                                            note="Access tokens are signed with RS256."))
    write(project.root, "src/auth/keys.ts", "export const alg = 'RS256';\n")
    git("add", "-A", cwd=repo)
    git("commit", "-qm", "signing", cwd=repo)


def _marks(results: list[dict]) -> dict[str, bool]:
    return {r["path"]: r["stale"] for r in results if r["path"] in (ENTRY, OTHER)}


def _ranked(data: dict) -> list[tuple[str, float]]:
    return [(r["path"], r["score"]) for r in data["results"]]


@pytest.mark.parametrize("mode", ["in-project", "standalone"])
def test_results_whose_code_changed_are_marked_and_ranked_as_before(tmp_path: Path,
                                                                    mode: str) -> None:
    if mode == "in-project":
        project = hooked_in_project(tmp_path)
        _two_entries(project, project.root)
    else:
        project = hooked_standalone(tmp_path)
        write(project.tree, OTHER, linked_entry("JWT signing keys", files=("src/auth/keys.ts",),
                                                note="Access tokens are signed with RS256."))
        git("add", "-A", cwd=project.tree)
        git("commit", "-qm", "signing", cwd=project.tree)
        write(project.root, "src/auth/keys.ts", "export const alg = 'RS256';\n")
        git("add", "-A", cwd=project.root)
        commit_at(project.root, "keys", EARLIER)
    before = brv_process("search", "access tokens", "--json", "--no-record", cwd=project.root)
    assert before.exit_code == 0, before.stderr
    assert _marks(before.json()["results"]) == {
        ENTRY: False, OTHER: False}

    write(project.root, CODE, "export const ttl = 1;\n")
    commit_at(project.root, "shorter tokens", LATER, "-a", "--no-verify")
    after = brv_process("search", "access tokens", "--json", "--no-record", cwd=project.root)
    assert after.exit_code == 0, after.stderr
    assert _marks(after.json()["results"]) == {
        ENTRY: True, OTHER: False}
    assert _ranked(after.json()) == _ranked(before.json())

    text = brv_process("search", "access tokens", "--no-record", cwd=project.root).stdout
    marked = [line for line in text.splitlines() if "[stale]" in line]
    assert len(marked) == 2
    assert marked[0].endswith("%] [stale]")
    assert "JWT tokens" in marked[0]
    assert marked[1].startswith("[stale]: the code the entry describes changed")

    query = brv_process("query", "access tokens", "--json", cwd=project.root)
    assert query.exit_code == 0, query.stderr
    assert _marks(query.json()["matched"]) == {
        ENTRY: True, OTHER: False}
    said = brv_process("query", "access tokens", cwd=project.root).stdout
    assert f"Stale: {ENTRY}: the code they describe changed since" in said


def test_the_resident_session_marks_too(tmp_path: Path) -> None:
    from brv_vc.clock import utcnow
    from brv_vc.services.query.session import SearchSession

    project = hooked_in_project(tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", "--no-verify", cwd=project.root)
    session = SearchSession(project)
    try:
        result = session.search("access tokens", now=utcnow(), record=False)
    finally:
        session.close()
    assert {h.path: h.stale for h in result.results} == {ENTRY: True,
                                                        "auth/jwt/token_rotation.md": False}


def test_a_tree_without_links_has_no_marks_and_imports_nothing_for_them(
        seeded: Project) -> None:
    done = run_brv("search", "stored text", "--json", cwd=seeded.root)
    assert [r["stale"] for r in done.json()["results"]] == [False]


def _judged_once(tmp_path: Path) -> Project:
    """An in-project tree whose entry's code changed, judged stale by one search."""
    project = hooked_in_project(tmp_path)
    write(project.root, CODE, "export const ttl = 1;\n")
    git("commit", "-qam", "shorter tokens", "--no-verify", cwd=project.root)
    first = brv_process("search", "access tokens", "--json", "--no-record", cwd=project.root)
    assert _marks(first.json()["results"]) == {ENTRY: True}
    return project


def _search_loading(project: Project, home: Path, modules: tuple[str, ...]
                    ) -> tuple[dict[str, bool], list[str]]:
    """A cold 'brv search' in its own process: its marks, and which of ``modules`` it imported."""
    import ast
    import json
    import subprocess
    import sys

    from conftest import REPO

    script = ("import runpy, sys; sys.argv = ['brv', 'search', 'access tokens', '--json']\n"
              "try:\n    runpy.run_module('brv_vc', run_name='__main__')\n"
              "except SystemExit:\n    pass\n"
              f"print(sorted(m for m in {modules!r} if m in sys.modules), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], cwd=project.root, text=True,
                          capture_output=True, env={"PYTHONPATH": str(REPO), "HOME": str(home),
                                                    "PATH": "/usr/bin:/bin"}, check=False)
    loaded = ast.literal_eval(done.stderr.strip().splitlines()[-1])
    return _marks(json.loads(done.stdout)["results"]), loaded


def test_a_later_search_reads_the_kept_answer_without_asking_git(tmp_path: Path) -> None:
    project = _judged_once(tmp_path)
    marks, loaded = _search_loading(
        project, tmp_path, ("dataclasses", "subprocess", "brv_vc.services.code_links"))
    assert loaded == []
    assert marks == {ENTRY: True}


def test_curating_between_commits_keeps_the_kept_answer(tmp_path: Path) -> None:
    """A curate moves the tree's fingerprint, not HEAD: the next search judges nothing again."""
    project = _judged_once(tmp_path)
    added = run_brv("curate", "add", "ops/deploy", "--title", "Deploys", "--content",
                    "Deploys run on Fridays.", "--reason", "r", cwd=project.root)
    assert added.exit_code == 0, added.stderr
    marks, loaded = _search_loading(project, tmp_path, ("brv_vc.services.code_links",))
    assert loaded == []
    assert marks == {ENTRY: True}
