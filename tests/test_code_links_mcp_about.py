"""The MCP tools brv-about and brv-stale, driven by the MCP SDK's own stdio client against a
real ``brv mcp`` process, answer in the CLI's --json shapes."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
from code_links_support import Repo
from mcp import ClientSession
from test_mcp_server import payload, with_server

SCHEMAS = Path(__file__).parent.parent / "schemas"


def test_an_agent_asks_about_a_file_before_opening_it(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/auth/jwt.py", "a\n")
    repo.commit("code")
    repo.entry("auth/jwt/tokens.md", ["src/auth/jwt.py"], title="Tokens")
    repo.write("src/auth/jwt.py", "b\n")
    repo.commit("RS256")

    async def work(s: ClientSession) -> tuple[dict, dict, object]:  # type: ignore[type-arg]
        names = {t.name for t in (await s.list_tools()).tools}
        assert {"brv-about", "brv-stale"} <= names
        about = payload(await s.call_tool("brv-about", {"paths": ["src/auth/jwt.py"]}))
        stale = payload(await s.call_tool("brv-stale", {}))
        bad = await s.call_tool("brv-stale", {"since": "no-such-rev"})
        return about, stale, bad

    about, stale, bad = with_server(repo.root, work)
    jsonschema.validate(about, json.loads((SCHEMAS / "answer-about.schema.json").read_text()))
    jsonschema.validate(stale, json.loads((SCHEMAS / "answer-stale.schema.json").read_text()))
    (item,) = about["paths"][0]["direct"]
    assert item["entry"] == "auth/jwt/tokens.md"
    assert item["freshness"]["changes_since"] == 1
    assert item["freshness"]["last"]["subject"] == "RS256"
    assert [e["entry"] for e in stale["entries"]] == ["auth/jwt/tokens.md"]
    assert bad.is_error  # type: ignore[attr-defined]
    assert "unknown revision" in bad.content[0].text  # type: ignore[attr-defined]
