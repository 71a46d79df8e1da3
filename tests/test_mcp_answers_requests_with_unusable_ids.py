"""``brv mcp`` answers a request whose id is no string or integer with an error (id null)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brv_vc.tree.project import Project
from tests.test_mcp_hostile_requests import Client


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Client]:
    from brv_vc.services.init import init_project

    root = tmp_path_factory.mktemp("mcp") / "proj"
    root.mkdir()
    init_project(root)
    started = Client(Project(root).root)
    try:
        yield started
    finally:
        started.close()


@pytest.mark.parametrize(("raw", "said"), [
    ('{"a": 1}', "an object"),
    ("[1]", "an array"),
    ("true", "a boolean"),
    ("NaN", "NaN"),
    ("1e400", "infinite"),
    ("1.5", "the fraction 1.5"),
    ("null", "null"),
])
def test_a_request_with_an_unusable_id_gets_an_error(served: Client, raw: str,
                                                     said: str) -> None:
    served.send('{"jsonrpc": "2.0", "id": ' + raw + ', "method": "tools/list"}')
    answer = served.answer(timeout=20)
    assert answer["id"] is None
    assert answer["error"]["code"] == -32600
    assert answer["error"]["message"] == (
        f"the request's id is {said}, but an id is a string or an integer; the request was "
        "not run: send it again with such an id")
    served.send('{"jsonrpc": "2.0", "id": "next", "method": "ping"}')
    assert served.answer()["id"] == "next"  # answered in order: nothing was left unanswered


def test_a_notification_gets_no_answer_and_a_string_id_its_own(served: Client) -> None:
    served.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    served.send('{"jsonrpc": "2.0", "id": "s-1", "method": "ping"}')
    assert served.answer() == {"jsonrpc": "2.0", "id": "s-1", "result": {}}
