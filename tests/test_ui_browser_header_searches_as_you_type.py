"""brv ui's header search box in a real browser (Debian's Chromium): typing shows results under
it without Enter (it did nothing until Enter), the arrows and Enter open a result, and Enter
with none picked still submits to the search page, as it does without script."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import Served, brv_ui, build_project

pytestmark = pytest.mark.slow
QUICK = "header form.quick input[name=q]"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    root = build_project(tmp_path_factory.mktemp("quick") / "project").project.root
    with brv_ui(root) as running:
        yield running


def test_typing_in_the_header_shows_results_without_enter(tab: Any, served: Served) -> None:
    tab.goto(served.base + "/?path=security")
    tab.locator(QUICK).press_sequentially("signing keys", delay=40)
    first = tab.locator("#quick-results li:not(.all) a").first
    first.wait_for()
    tab.wait_for_function("() => document.querySelector('#quick-results a')"
                          "?.textContent.startsWith('Signing Keys')")
    assert tab.url == served.base + "/?path=security"  # nothing submitted
    assert tab.locator("#quick-results").is_visible()
    tab.locator(QUICK).press("ArrowDown")
    tab.locator(QUICK).press("Enter")
    tab.wait_for_url("**/entry?path=*signing_keys*")
    assert tab.locator("main h1").inner_text() == "Signing Keys"


def test_enter_without_a_pick_opens_the_search_page(tab: Any, served: Served) -> None:
    tab.goto(served.base + "/")
    tab.locator(QUICK).press_sequentially("session", delay=40)
    tab.locator("#quick-results li:not(.all) a").first.wait_for()
    tab.locator(QUICK).press("Enter")
    tab.wait_for_url("**/search?q=session")
    assert tab.locator("#results li").count() >= 1
    tab.locator(QUICK).fill("zzzqqq")  # a word no entry has: the list says so
    tab.wait_for_function("() => document.querySelector('#quick-results li.all a')"
                          "?.textContent === 'no result'")
