"""brv ui in a real browser: approving a pending deletion keeps it on disk, rejecting one
restores the entry's bytes, each through the review queue's buttons (Debian's Chromium)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import PENDING, Demo, Served, opened, review_click, statuses

pytestmark = pytest.mark.slow


def decide(page: Any, demo_served: Served, entry: str, button: str) -> str:
    return review_click(page, demo_served, "section.card", entry, button)


def test_approve_keeps_the_deletion_and_reject_restores_the_entry(
    browser: Any, demo_served: Served, demo: Demo
) -> None:
    tree = demo.project.tree
    assert not (tree / PENDING[0]).exists()
    assert not (tree / PENDING[1]).exists()
    assert statuses(demo) == {"1": "pending", "2": "pending"}
    with opened(browser, demo_served) as page:
        text = decide(page, demo_served, "legacy_cookie_store", "Approve")
        assert "#1 approved" in text
        assert not (tree / PENDING[0]).exists()
        assert statuses(demo) == {"1": "approved", "2": "pending"}

        text = decide(page, demo_served, "opaque_tokens", "Reject (restore)")
        assert "#2 rejected" in text
        assert (tree / PENDING[1]).read_bytes() == demo.before[PENDING[1]]
        assert not (tree / PENDING[0]).exists()
        assert statuses(demo) == {"1": "approved", "2": "rejected"}
        page.goto(demo_served.base + "/review")
        assert "Nothing waits for review." in page.locator("main").inner_text()
        # the restored entry is back on the tree page
        page.goto(demo_served.base + "/?path=legacy%2Ftokens")
        assert page.locator("main").get_by_role("link", name="Opaque Tokens").count() >= 1
