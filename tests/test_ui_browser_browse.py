"""brv ui in a real browser: open the tree, open an entry, follow its links, and an entry
whose text is markup shows as text with no script run (Debian's Chromium via Playwright)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import EVIL, Served, brv_ui, build_project, click_node, graph_nodes, opened

pytestmark = pytest.mark.slow


@pytest.fixture
def served(tmp_path: Path, browser: Any) -> Iterator[Served]:
    project = build_project(tmp_path / "project").project
    with brv_ui(project.root) as running:
        yield running


@pytest.fixture
def page(browser: Any, served: Served) -> Iterator[Any]:
    with opened(browser, served) as ready:
        yield ready


def test_the_tree_opens_with_its_domains_and_folds_into_a_topic(page: Any) -> None:
    assert "brv" in page.title()
    main = page.locator("main")
    for domain in ("authentication", "security", "legacy"):
        assert main.get_by_role("link", name=domain).count() >= 1
    main.get_by_role("link", name="authentication").first.click()
    page.wait_for_url("**/?path=authentication*")
    assert main.get_by_role("link", name="jwt_implementation").count() >= 1
    # the domain's picture: its entries as nodes, each opening its entry
    main.get_by_role("link", name="Graph of its links").click()
    page.wait_for_url("**/graph?domain=authentication")
    assert "authentication/jwt_implementation/signing_keys.md" in graph_nodes(page)
    click_node(page, "authentication/jwt_implementation/signing_keys.md")
    page.wait_for_url("**/entry?path=*signing_keys*")


def test_an_entry_opens_and_its_relation_leads_to_the_related_entry(page: Any, served: Served) -> None:
    page.goto(served.base + "/?path=authentication%2Fjwt_implementation")
    page.locator("main").get_by_role("link", name="JWT Token Generation").first.click()
    page.wait_for_url("**/entry?path=*jwt_token_generation*")
    main = page.locator("main")
    assert main.get_by_role("heading", name="JWT Token Generation").count() >= 1
    assert "RS256" in main.inner_text()
    main.get_by_role("link", name="authentication/session_management/session_cookies.md").first.click()
    page.wait_for_url("**/entry?path=*session_cookies*")
    text = page.locator("main").inner_text()
    assert "httpOnly" in text
    # the way back: session cookies are named by the JWT entry (a backlink)
    assert "jwt_token_generation" in text


def test_an_entry_of_markup_shows_it_as_text_and_runs_no_script(page: Any, served: Served) -> None:
    ran: list[str] = []
    page.on("dialog", lambda dialog: (ran.append(dialog.message), dialog.dismiss()))
    page.goto(served.base + "/?path=security%2Finjection")
    page.locator("main").get_by_role("link", name=EVIL).first.click()
    page.wait_for_url("**/entry?path=*")
    main = page.locator("main")
    assert "<script>window.pwned=1</script>" in main.inner_text()
    assert page.evaluate("() => typeof window.pwned") == "undefined"
    assert page.locator("main script").count() == 0
    assert page.locator("main img[onerror]").count() == 0
    assert ran == []
