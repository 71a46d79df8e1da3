"""brv ui's graph in a real browser (Debian's Chromium): the whole tree is its entries joined by
their real links; it zooms, pans, filters by domain, tag and maturity, finds and centres a
node, opens a node on click; and the page keeps its Content-Security-Policy, breaks none of
it, and asks nothing of any host but brv's own loopback server (the library is vendored)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import Served, brv_ui, build_project, click_node, graph_nodes, node_point

from brv_vc.lifecycle.scoring import Signals
from brv_vc.lifecycle.sidecar import put_many
from brv_vc.tree.statedb import open_state

pytestmark = pytest.mark.slow
KEYS = "authentication/jwt_implementation/signing_keys.md"
JWT = "authentication/jwt_implementation/jwt_token_generation.md"
COOKIES = "authentication/session_management/session_cookies.md"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[Served]:
    project = build_project(tmp_path_factory.mktemp("graph") / "project").project
    conn = open_state(project)  # the signing keys entry is core (as after many good hits)
    now = time.time()
    put_many(conn, {KEYS: Signals(importance=95.0, maturity="core", updated_at=now,
                                  scored_at=now)})
    conn.close()
    with brv_ui(project.root) as running:
        yield running


@pytest.fixture
def tab(browser: Any, served: Served) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.set_default_timeout(20_000)
    # counted from the first script on, before the page's own: every CSP violation
    context.add_init_script("window.violations = [];"
                            "document.addEventListener('securitypolicyviolation',"
                            " e => window.violations.push(e.violatedDirective));")
    page = context.new_page()
    page.goto(served.url)
    page.goto(served.base + "/graph")
    graph_nodes(page)
    yield page
    context.close()


def test_the_whole_tree_is_its_entries_joined_by_their_real_links(tab: Any) -> None:
    nodes = graph_nodes(tab)
    assert {KEYS, JWT, COOKIES} <= nodes
    injection = [n for n in nodes if n.startswith("security/")]
    assert len(injection) == 1  # the other domain's entry, not a square for the domain
    edges = set(tab.evaluate("() => brvGraph.edges().map(e => e.source().id() + '>' + "
                             "e.target().id())"))
    assert f"{injection[0]}>{COOKIES}" in edges  # its relation across domains
    assert f"{KEYS}>{JWT}" in edges
    assert tab.evaluate("() => brvGraph.elements().components().length") == 1  # connected


def test_it_zooms_with_the_wheel_and_the_buttons_and_pans_by_dragging(tab: Any) -> None:
    box = tab.locator("#graph").bounding_box()
    before = tab.evaluate("() => brvGraph.zoom()")
    tab.mouse.move(box["x"] + 30, box["y"] + 30)
    for _ in range(8):  # Cytoscape damps a device's first few wheel events
        tab.mouse.wheel(0, -100)
    tab.wait_for_function("(z) => brvGraph.zoom() > z * 1.05", arg=before)
    zoomed = tab.evaluate("() => brvGraph.zoom()")
    tab.locator("#graph-out").click()
    tab.wait_for_function("(z) => brvGraph.zoom() < z * 0.9", arg=zoomed)
    pan = tab.evaluate("() => brvGraph.pan()")
    start = (box["x"] + 12, box["y"] + box["height"] - 12)  # a corner: no node there
    assert tab.evaluate("([x, y]) => brvGraph.nodes().filter(n => { const b = "
                        "n.renderedBoundingBox(); return x >= b.x1 && x <= b.x2 && "
                        "y >= b.y1 && y <= b.y2; }).length", [12, box["height"] - 12]) == 0
    tab.mouse.move(*start)
    tab.mouse.down()
    tab.mouse.move(start[0] + 120, start[1] - 80, steps=8)
    tab.mouse.up()
    moved = tab.evaluate("() => brvGraph.pan()")
    assert moved["x"] == pytest.approx(pan["x"] + 120, abs=4)
    assert moved["y"] == pytest.approx(pan["y"] - 80, abs=4)


def test_it_filters_by_domain_tag_and_maturity(tab: Any) -> None:
    every = graph_nodes(tab)
    tab.locator("#graph-domain").select_option("security")
    assert {n.split("/")[0] for n in graph_nodes(tab)} == {"security"}
    tab.locator("#graph-domain").select_option("")
    assert graph_nodes(tab) == every
    tab.locator("#graph-tag").select_option("keys")
    assert graph_nodes(tab) == {KEYS}
    tab.locator("#graph-tag").select_option("")
    tab.locator("#graph-maturity").select_option("core")
    assert graph_nodes(tab) == {KEYS}
    tab.locator("#graph-maturity").select_option("draft")
    assert graph_nodes(tab) == every - {KEYS}
    assert tab.locator("#graph-count").inner_text() == f"{len(every) - 1} of {len(every)} nodes"


def test_a_search_marks_and_centres_a_node_and_a_click_opens_it(tab: Any) -> None:
    tab.locator("#graph-find").press_sequentially("cookies", delay=30)
    tab.wait_for_function("(id) => brvGraph.getElementById(id).hasClass('found')", arg=COOKIES)
    assert tab.evaluate("() => brvGraph.nodes('.found').map(n => n.id())") == [COOKIES]
    x, y = node_point(tab, COOKIES)
    box = tab.locator("#graph").bounding_box()
    assert x == pytest.approx(box["x"] + box["width"] / 2, abs=3)  # centred
    assert y == pytest.approx(box["y"] + box["height"] / 2, abs=3)
    click_node(tab, COOKIES)
    tab.wait_for_url("**/entry?path=*session_cookies*")
    assert "httpOnly" in tab.locator("main").inner_text()


def test_the_page_keeps_its_csp_and_asks_only_its_own_server(browser: Any, served: Served) -> None:
    context = browser.new_context()
    context.add_init_script("window.violations = [];"
                            "document.addEventListener('securitypolicyviolation',"
                            " e => window.violations.push(e.violatedDirective));")
    asked: list[str] = []
    context.on("request", lambda request: asked.append(request.url))
    page = context.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.goto(served.url)
    answer = page.goto(served.base + "/graph")
    assert answer.headers["content-security-policy"] == CSP
    graph_nodes(page)
    script = page.request.get(served.base + "/static/cytoscape.min.js")
    assert script.headers["content-security-policy"] == CSP
    assert script.headers["content-type"].startswith("text/javascript")
    assert page.evaluate("() => window.violations") == []
    assert problems == []
    assert asked
    assert all(url.startswith(served.base + "/") for url in asked), asked
    context.close()
