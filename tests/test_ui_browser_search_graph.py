"""brv ui in a real browser: results appear as you type (brv search's ranking), and the graph
page draws an entry's links as nodes that open their entries, a markup title as canvas text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import EVIL, Served, brv_ui, build_project, click_node, graph_nodes, opened
from conftest import run_brv

pytestmark = pytest.mark.slow
JWT = "authentication/jwt_implementation/jwt_token_generation.md"


@pytest.fixture
def root(tmp_path: Path, browser: Any) -> Path:
    return build_project(tmp_path / "project").project.root


@pytest.fixture
def page(browser: Any, root: Path) -> Iterator[tuple[Any, Served]]:
    with brv_ui(root) as served, opened(browser, served) as ready:
        yield ready, served


def test_results_come_as_you_type_in_brv_search_order(page: tuple[Any, Served], root: Path) -> None:
    tab, served = page
    tab.goto(served.base + "/search")
    done = run_brv("search", "signing keys", "--no-record", "--json", cwd=root)
    expected = [hit["title"] for hit in done.json()["results"]]  # type: ignore[index]
    tab.locator("#q").press_sequentially("signing keys", delay=40)
    # on a loaded machine a pause between keys may fetch a partial query first: wait for the
    # answer to the whole one (the script shows only the latest answer)
    tab.wait_for_function(
        "(want) => Array.from(document.querySelectorAll('#results li > a'))"
        ".map(a => a.textContent).join('|') === want",
        arg="|".join(expected), timeout=20_000)
    shown = [a.inner_text() for a in tab.locator("#results li > a").all()]
    assert "/search?q=signing" in tab.url  # the page was not submitted: the script asked
    assert shown == expected
    assert shown[0] == "Signing Keys"
    assert tab.locator("#results mark").count() >= 1  # the terms highlighted
    tab.locator("#results li > a").first.click()
    tab.wait_for_url("**/entry?path=*signing_keys*")


def test_the_graph_of_an_entry_draws_its_links_and_a_node_opens_its_entry(
    page: tuple[Any, Served]
) -> None:
    tab, served = page
    tab.goto(served.base + "/entry?path=" + JWT.replace("/", "%2F"))
    tab.get_by_role("link", name="Graph of its links").click()
    nodes = graph_nodes(tab)
    assert JWT in nodes
    assert "authentication/session_management/session_cookies.md" in nodes  # named by it
    assert "authentication/jwt_implementation/signing_keys.md" in nodes  # names it
    assert tab.evaluate("() => brvGraph.edges().length") >= 2
    box = tab.locator("#graph").bounding_box()
    assert box["width"] > 200  # drawn, not an empty element
    click_node(tab, "authentication/session_management/session_cookies.md")
    tab.wait_for_url("**/entry?path=*session_cookies*")
    assert "httpOnly" in tab.locator("main").inner_text()


def test_the_graph_shows_a_markup_title_as_text_and_the_whole_tree_without_a_place(
    page: tuple[Any, Served]
) -> None:
    tab, served = page
    tab.goto(served.base + "/graph?domain=security")
    nodes = graph_nodes(tab)
    marked = [n for n in nodes if n.endswith("_injection.md")]
    assert len(marked) == 1
    label = tab.evaluate("(id) => brvGraph.getElementById(id).data('label')", marked[0])
    assert label == EVIL[:39] + "…"  # drawn as canvas text (40 characters), never HTML
    assert tab.evaluate("() => typeof window.pwned") == "undefined"
    assert tab.locator("#graph script, #graph svg").count() == 0
    tab.get_by_role("navigation").get_by_role("link", name="Graph").click()
    tab.wait_for_url("**/graph")
    drawn = graph_nodes(tab)  # the entries of every domain, not one square each
    assert {n.split("/")[0] for n in drawn} == {"authentication", "security"}
