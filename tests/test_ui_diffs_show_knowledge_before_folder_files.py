"""A change's knowledge entries come first; the folder files brv regenerates are folded after them."""

from __future__ import annotations

from brv_vc.vc.semdiff import EntryDiff
from brv_vc.web.diff_html import render_diffs


def test_folder_files_are_folded_after_the_entries_they_follow() -> None:
    diffs = [EntryDiff("legacy/context.md", "modified", title="Domain: legacy"),
             EntryDiff("legacy/cookies/context.md", "modified", title="Topic: cookies"),
             EntryDiff("legacy/cookies/legacy_cookie_store.md", "removed",
                       title="Legacy Cookie Store")]
    page = str(render_diffs(diffs, "nothing"))
    entry = page.index("legacy/cookies/legacy_cookie_store.md")
    folded = page.index('<details class="folded"><summary>2 folder files (context.md')
    assert entry < folded
    assert "context.md" not in page[:folded]
    assert page.count('class="diff"') == 3  # nothing dropped, only folded


def test_a_change_of_entries_alone_has_nothing_folded() -> None:
    page = str(render_diffs([EntryDiff("a/b/c.md", "added", title="C")], "nothing"))
    assert "<details" not in page
    assert str(render_diffs([], "nothing here")) == '<p class="hint">nothing here</p>'
