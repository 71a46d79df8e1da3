"""An MCP tool answers bad arguments in brv's error shape, naming the tool's own argument.

Through the SDK's stdio client against a real ``brv mcp``: a value of the wrong type, a
missing or unknown argument and a value out of range each get ``{"ok": false, "version": 1,
"error": {"code": "usage", "message", "key", "hint"}}`` in brv's words (``limit must be
between 1 and 50``), never the validation library's text nor the CLI's ``--limit``.
"""

from __future__ import annotations

from typing import Any

from mcp import ClientSession
from test_mcp_server import payload, with_server

from brv_vc.tree.project import Project

SEARCH_ARGS = ("brv-search takes query (a string, required), limit (an integer), scope "
               "(a string), cwd (a string), record (true or false)")


def test_bad_arguments_are_answered_in_brvs_words(project: Project) -> None:
    async def work(s: ClientSession) -> list[tuple[dict[str, Any], bool]]:
        calls = [("brv-search", {"query": "token", "limit": "many"}),
                 ("brv-search", {"limit": 5}),
                 ("brv-search", {"query": "token", "limt": 5}),
                 ("brv-about", {"paths": "src/a.py"}),
                 ("brv-search", {"query": "token", "limit": 500}),
                 ("brv-hydrate", {"budget": 99}),
                 ("brv-brain", {"budget": 199})]
        return [(payload(r), bool(r.is_error))
                for r in [await s.call_tool(name, args) for name, args in calls]]

    answers = with_server(project.root, work)
    assert all(failed for _, failed in answers)
    errors = [body["error"] for body, _ in answers]
    assert all(body["ok"] is False and body["version"] == 1 for body, _ in answers)
    assert errors[0] == {"code": "usage", "message": 'limit must be an integer, got "many"',
                         "key": "limit", "hint": SEARCH_ARGS}
    assert errors[1] == {"code": "usage", "message": "query is required", "key": "query",
                         "hint": SEARCH_ARGS}
    assert errors[2] == {"code": "usage", "message": "no argument 'limt'; nothing was done",
                         "key": "limt", "hint": SEARCH_ARGS}
    assert errors[3]["message"] == 'paths must be a list, got "src/a.py"'
    assert errors[3]["hint"] == "brv-about takes paths (a list, required), cwd (a string)"
    assert errors[4] == {"code": "usage", "message": "limit must be between 1 and 50, got 500",
                         "key": "limit", "hint": "try limit 10"}
    assert errors[5] == {"code": "usage", "message": "budget 99 is too small", "key": "budget",
                         "hint": "give at least 100 tokens"}
    assert errors[6]["message"] == "budget 199 is too small for a brain"
    said = " ".join(str(e) for e in errors)
    assert "pydantic" not in said
    assert "validation error" not in said
    assert "--" not in said


def test_the_cli_keeps_its_option_words(project: Project, brv) -> None:
    refused = brv("search", "token", "--limit", "500", cwd=project.root)
    assert refused.exit_code == 2
    assert refused.stderr == ("brv: error: --limit must be between 1 and 50, got 500\n"
                              "hint: try --limit 10\n")
