"""brv ui's tree page shows a folder's entries 100 at a time, with a pager, and never lists a
sub-folder's entries on its parent's page (the tree stays folded)."""

from __future__ import annotations

import re

from dream_support import NOW
from ui_support import served

from brv_vc.services import curate
from brv_vc.tree.project import Project


def test_a_folder_of_130_entries_comes_in_two_pages(project: Project) -> None:
    ops = [{"type": "ADD", "path": "big/topic", "title": f"Note {i:03d}",
            "content": f"Fact number {i}.", "reason": "test"} for i in range(130)]
    ops.append({"type": "ADD", "path": "big/topic/deeper", "title": "Hidden below",
                "content": "Only on its own page.", "reason": "test"})
    assert curate.run_batch(project, ops, NOW).ok
    with served(project) as client:
        first = client.get("/?path=big/topic").body
        second = client.get("/?path=big/topic&page=2").body
        beyond = client.get("/?path=big/topic&page=99").body
        parent = client.get("/?path=big").body
    titles = re.compile(r">Note (\d{3})</a>")
    assert len(titles.findall(first)) == 100
    assert len(titles.findall(second)) == 30
    assert set(titles.findall(first)).isdisjoint(titles.findall(second))
    assert "page 1 of 2" in first
    assert 'href="/?path=big%2Ftopic&amp;page=2"' in first
    assert "page 2 of 2" in second
    assert "page 2 of 2" in beyond  # clamped to the last page
    assert "131 entries" in parent
    assert "Note 000" not in parent
    assert "Hidden below" not in first
    assert 'href="/?path=big%2Ftopic%2Fdeeper"' in first
