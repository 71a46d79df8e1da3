"""An entry edited in place (same size, same mtime, folder untouched) is found by the next search."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from retrieval_util import write_entry

from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.index import sync as syncmod
from brv_vc.services.derived.index import index_project
from brv_vc.services.init import init_project
from brv_vc.services.query.search import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ENTRIES = 1000
TARGET = "area_0/topic_3/note_37.md"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """1,000 entries in 10 x 10 folders; each holds the word pumpkin and its number."""
    root = tmp_path_factory.mktemp("thousand")
    init_project(root)
    project = Project(root)
    write_entry(project, "area_0/topic_0/note_0.md", "Note 0", "pumpkin n0000.")
    for i in range(1, ENTRIES):
        body = build_body([("Narrative", f"Meeting notes about pumpkin planning n{i:04d}.")])
        path = project.tree / f"area_{i // 100 % 10}/topic_{i // 10 % 10}/note_{i}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(serialize_entry(Entry(title=f"Note {i}", body=body)))
    return root


@pytest.fixture
def thousand(template: Path, tmp_path: Path) -> Project:
    """A copy of the template, indexed."""
    root = tmp_path / "proj1000"
    shutil.copytree(template, root, symlinks=True)
    project = Project(root)
    index_project(project, rebuild=True, now=NOW)
    return project


def edit_in_place(path: Path, old: str, new: str) -> None:
    """Rewrites the file in place (no rename), keeping its size, its mtime and its folder's."""
    assert len(old) == len(new)
    st, folder = path.stat(), path.parent.stat()
    with path.open("r+b") as handle:  # as `echo >>` or an IDE saving in place would
        data = handle.read().replace(old.encode(), new.encode())
        handle.seek(0)
        handle.write(data)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.utime(path.parent, ns=(folder.st_atime_ns, folder.st_mtime_ns))
    assert path.stat().st_size == st.st_size
    assert path.stat().st_mtime_ns == st.st_mtime_ns


def found(project: Project, word: str) -> list[str]:
    return [hit.path for hit in search_tree(project, word, now=NOW).results]


@pytest.mark.parametrize("large", [False, True], ids=["full-walk", "folder-check-and-scan"])
def test_an_in_place_edit_is_found_by_the_very_next_search(
    thousand: Project, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    if large:  # the path trees over FULL_WALK_MAX files take: no full walk at all
        monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    assert found(thousand, "n0037") == [TARGET]
    edit_in_place(thousand.tree / TARGET, "n0037", "kiwis")
    assert found(thousand, "kiwis") == [TARGET]
    # a second edit right after the index read the file: same size, same mtime, and most
    # likely the same clock tick, so even the ctime may not have moved
    edit_in_place(thousand.tree / TARGET, "kiwis", "melon")
    assert found(thousand, "melon") == [TARGET]
    assert found(thousand, "kiwis") == []


def test_the_large_tree_path_needs_no_full_walk(
    thousand: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    found(thousand, "pumpkin")  # a first check after the build
    walks: list[str] = []
    real_walk = syncmod._walk
    monkeypatch.setattr(syncmod, "_walk", lambda *a: walks.append(a[1]) or real_walk(*a))
    edit_in_place(thousand.tree / TARGET, "n0037", "kiwis")
    assert found(thousand, "kiwis") == [TARGET]
    assert "" not in walks  # the tree root was never walked


def test_without_find_a_full_walk_still_finds_the_edit(
    thousand: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    found(thousand, "pumpkin")
    empty = tmp_path / "no-tools"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no find on PATH: the scan cannot run
    edit_in_place(thousand.tree / TARGET, "n0037", "kiwis")
    assert found(thousand, "kiwis") == [TARGET]


def test_a_small_tree_keeps_no_stamp_and_starts_no_scan(thousand: Project) -> None:
    from brv_vc.index import scan

    found(thousand, "pumpkin")  # 1,000 files: a full walk, every time
    assert not scan.stamp_path(thousand.state).exists()
    scan.start(thousand.tree, thousand.state)
    assert str(thousand.tree) not in scan._pending


@pytest.mark.parametrize("cores", [1, 2, 4])
def test_edits_in_every_domain_are_found_however_the_scan_is_split(
    thousand: Project, monkeypatch: pytest.MonkeyPatch, cores: int
) -> None:
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    monkeypatch.setattr(os, "cpu_count", lambda: cores)  # one find per core
    found(thousand, "pumpkin")
    targets = [f"area_{a}/topic_1/note_{a * 100 + 17}.md" for a in (0, 1, 5, 9)]
    for a, target in zip((0, 1, 5, 9), targets, strict=True):
        edit_in_place(thousand.tree / target, f"n{a * 100 + 17:04d}", f"kiw{a:02d}")
    assert sorted(p for w in ("kiw00", "kiw01", "kiw05", "kiw09") for p in found(thousand, w)) == (
        sorted(targets))


def test_the_scan_follows_no_link_into_or_out_of_the_tree(
    thousand: Project, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from brv_vc.index import scan

    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    found(thousand, "pumpkin")
    outside = tmp_path / "outside" / "topic"
    outside.mkdir(parents=True)
    (outside / "secret.md").write_text("---\ntitle: Secret\n---\nkiwis\n")
    (thousand.tree / "linked").symlink_to(outside.parent)
    scan.start(thousand.tree, thousand.state)
    changed = scan.changed(thousand.tree, thousand.state)
    assert changed is not None
    assert not [p for p in changed[0] if p.startswith("linked")]
    assert found(thousand, "kiwis") == []


def test_a_search_starts_its_scan_before_the_project_code_is_imported(
    thousand: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cli/entry.py starts the finds from the folder alone; find_project's tree adopts them."""
    from brv_vc.index import scan
    from brv_vc.tree.project import find_project

    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    found(thousand, "pumpkin")  # the first check leaves the stamp
    edit_in_place(thousand.tree / TARGET, "n0037", "kiwis")
    scan.start_early(str(thousand.tree / "area_0" / "topic_3"))
    key = str(find_project(thousand.tree / "area_0").tree)
    assert key in scan._pending
    assert found(thousand, "kiwis") == [TARGET]
    assert key not in scan._pending  # the search took the early scan's answer


def test_an_empty_tree_scans_nothing(tmp_path: Path) -> None:
    from brv_vc.index import scan

    tree, state = tmp_path / "tree", tmp_path / "state"
    tree.mkdir()
    state.mkdir()
    scan.stamp_path(state).touch()
    result = scan.changed(tree, state)
    assert result is not None
    assert result[0] == []


SYNTHESIS = "area_0/crosscut.md"


def write_synthesis(project: Project, text: str, kind: str = "synthesis") -> None:
    (project.tree / SYNTHESIS).write_text(
        f"---\ntitle: Crosscut\ntype: {kind}\n---\n\n{text}\n", encoding="utf-8")


@pytest.mark.parametrize("large", [False, True], ids=["full-walk", "folder-check-and-scan"])
def test_a_synthesis_edited_in_place_is_found_and_one_edited_into_a_note_leaves(
    thousand: Project, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    if large:
        monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    write_synthesis(thousand, "Patterns across areas: lemons.")
    assert found(thousand, "lemons") == [SYNTHESIS]
    edit_in_place(thousand.tree / SYNTHESIS, "lemons", "mangos")
    assert found(thousand, "mangos") == [SYNTHESIS]
    edit_in_place(thousand.tree / SYNTHESIS, "synthesis", "sketchy00")  # no longer one
    assert found(thousand, "mangos") == []
