"""brv ui in a real browser (Debian's Chromium): an entry's markdown table is a table, inline code
in a link's text is code inside the link (not NUL placeholders), and the diffs of the review
queue and of an entry's history show their lines one under the other, with no blank line
after each (each coloured line was a block followed by a newline)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import Served, brv_ui, build_project
from conftest import run_brv

pytestmark = pytest.mark.slow
TABLE = ("Use the right command.\n\n| Command | Does |\n|:--|--:|\n| `brv vc diff` | diffs |\n"
         "| `brv search` | finds |\n\nSee [the `brv vc` command](../vc/overview.md) first.")
# every line of each diff <pre> against the one before it: how far below its bottom it starts
GAPS = """() => Array.from(document.querySelectorAll('.diff pre')).flatMap(pre => {
  const rows = Array.from(pre.children).map(e => e.getBoundingClientRect());
  return rows.slice(1).map((r, i) => r.top - rows[i].bottom);
})"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    root = build_project(tmp_path_factory.mktemp("md") / "project").project.root
    done = run_brv("curate", "add", "tools/cli", "--title", "Commands", "--content", TABLE,
                   cwd=root)
    assert done.exit_code == 0, done.stderr
    steps = "\n".join(f"{n}. Step {n} of the old release runbook." for n in range(1, 6))
    for args in (("curate", "add", "tools/release", "--title", "Old Runbook", "--content", steps),
                 ("curate", "delete", "tools/release/old_runbook.md", "--reason", "replaced")):
        done = run_brv(*args, cwd=root)  # a deletion of several lines waits for review
        assert done.exit_code == 0, done.stderr
    with brv_ui(root) as running:
        yield running


def test_a_table_is_a_table_and_code_in_a_link_stays_inside_it(tab: Any, served: Served) -> None:
    tab.goto(served.base + "/entry?path=tools%2Fcli%2Fcommands.md")
    table = tab.locator("article.md table")
    assert table.count() == 1
    assert [th.inner_text() for th in table.locator("th").all()] == ["Command", "Does"]
    assert [c.inner_text() for c in table.locator("tbody tr").first.locator("td").all()] == [
        "brv vc diff", "diffs"]
    assert table.locator("td code").count() == 2
    assert table.locator("td").nth(1).evaluate("td => getComputedStyle(td).textAlign") == "right"
    link = tab.locator("article.md a", has_text="command")
    assert link.inner_text() == "the brv vc command"
    assert link.locator("code").inner_text() == "brv vc"
    assert link.get_attribute("href") == "/entry?path=tools/vc/overview.md"
    text = tab.locator("article.md").inner_text()
    assert "|" not in text
    assert "\ufffd" not in text


def test_review_diffs_have_no_blank_line_between_lines(tab: Any, served: Served) -> None:
    tab.goto(served.base + "/review")
    gaps = tab.evaluate(GAPS)
    assert len(gaps) >= 4  # the runbook's pending deletion shows its removed lines
    assert max(gaps) < 1, gaps


def test_history_diffs_have_no_blank_line_between_lines(tab: Any, served: Served) -> None:
    tab.goto(served.base + "/entry?path=authentication%2Fjwt_implementation%2Fsigning_keys.md")
    tab.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
    gaps = tab.evaluate(GAPS)
    assert gaps  # 48 hours replaced 24: a changed section's - and + lines
    assert max(gaps) < 1, gaps
