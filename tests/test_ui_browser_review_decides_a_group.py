"""brv ui in a real browser decides a group of review entries at once (issue 37): the
queue page lists the pending changes' groups (kind, domain, dream) with their buttons, and
one click rejects a whole group (every file restored) or approves one, through the same
same-origin POST and token as the page's other buttons (Debian's Chromium)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import PENDING, Demo, Served, opened, review_click, statuses

pytestmark = pytest.mark.slow


def click_group(page: Any, demo_served: Served, group: str, button: str) -> str:
    return review_click(page, demo_served, "section.groups li.group", group, button)


def test_one_click_rejects_a_whole_domain_and_restores_every_file(
    browser: Any, demo_served: Served, demo: Demo
) -> None:
    tree = demo.project.tree
    assert statuses(demo) == {"1": "pending", "2": "pending"}
    with opened(browser, demo_served) as page:
        text = click_group(page, demo_served, "domain legacy", "Reject all 2 (restore)")
        assert "2 review entries rejected" in text
        for entry in PENDING:
            assert (tree / entry).read_bytes() == demo.before[entry]
        assert statuses(demo) == {"1": "rejected", "2": "rejected"}
        assert "Nothing waits for review." in text


def test_one_click_approves_a_whole_kind(browser: Any, demo_served: Served, demo: Demo) -> None:
    tree = demo.project.tree
    with opened(browser, demo_served) as page:
        text = click_group(page, demo_served, "kind DELETE", "Approve all 2")
        assert "2 review entries approved" in text
        assert statuses(demo) == {"1": "approved", "2": "approved"}
        for entry in PENDING:
            assert not (tree / entry).exists()


def test_a_group_post_from_another_origin_is_refused(
    browser: Any, demo_served: Served, demo: Demo
) -> None:
    import urllib.error
    import urllib.request

    request = urllib.request.Request(
        demo_served.url.replace("/?", "/review/group/reject?domain=legacy&"), method="POST",
        headers={"Origin": "http://evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 403
    assert statuses(demo) == {"1": "pending", "2": "pending"}
