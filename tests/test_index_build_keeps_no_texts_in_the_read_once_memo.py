"""A sync that reads more files than the read-once memo holds (a whole-tree build) adds none of
their texts to it: each is read once there, and the memo, filled only to be cleared, was the
build's largest share of memory. A sync of a few files still keeps them for the next reader."""

from __future__ import annotations

import pytest
from retrieval_util import write_entry

from brv_vc.format import entry as entry_format
from brv_vc.index.db import open_index
from brv_vc.index.sync import sync
from brv_vc.tree.project import Project

LIMIT = 8  # the memo's bound in texts, small so a tree of a few entries is "whole-tree"


@pytest.fixture
def memo(monkeypatch: pytest.MonkeyPatch) -> dict[str, object]:
    monkeypatch.setattr(entry_format, "SEEN_LIMIT", LIMIT)
    entry_format._SEEN.clear()
    yield entry_format._SEEN
    entry_format._SEEN.clear()


def _sync(project: Project, paths: list[str] | None = None) -> tuple[str, ...]:
    handle = open_index(project)
    try:
        report = sync(project, handle.conn, mode="full" if paths is None else None, paths=paths)
    finally:
        handle.conn.close()
    return report.added + report.updated


def _write(project: Project, count: int, word: str = "rotate") -> list[str]:
    paths = [f"auth/jwt/entry_{i:02d}.md" for i in range(count)]
    for i, path in enumerate(paths):
        write_entry(project, path, f"Entry {i}", f"How we {word} key {i}.", tags=("auth",))
    return paths


def test_a_build_of_more_files_than_the_memo_holds_keeps_none(
    project: Project, memo: dict[str, object]
) -> None:
    paths = _write(project, 3 * LIMIT + 3)
    assert sorted(_sync(project)) == paths  # every entry indexed
    assert memo == {}


def test_a_sync_of_a_few_files_keeps_them_for_the_next_reader(
    project: Project, memo: dict[str, object]
) -> None:
    paths = _write(project, LIMIT)
    assert sorted(_sync(project)) == paths
    assert len(memo) == LIMIT
    memo.clear()
    edited = _write(project, 3, word="renew")
    assert sorted(_sync(project, edited)) == edited
    assert len(memo) == 3
