"""``brv mcp``: the MCP server (stdio) built on the official ``mcp`` SDK.

It stays resident, so Python, the imports and SQLite's page cache are warm for every call;
each call still runs the same change check as the CLI, so edits made by hand, by git or by
another process between calls are seen. Tool names follow seed 002 §3.1 (``brv-query``,
``brv-curate``, ...); each takes ``cwd`` for clients that have no workspace folder.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, cast

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from brv_vc import __version__
from brv_vc.mcp import arguments as bad_arguments
from brv_vc.mcp.stdio import serve_stdio
from brv_vc.mcp.tools import ToolFailure, Tools
from brv_vc.scrub import scrub_values

INSTRUCTIONS = (
    "brv is this project's memory: a context tree of markdown knowledge. Read the "
    "brv://brain resource (or call brv-brain) at the start of a session; use brv-search or "
    "brv-query before answering questions about the project; record what you learn with "
    "brv-curate (structured ADD/UPDATE/UPSERT/MERGE/DELETE operations, each with a reason)."
)
CWD = "Project folder (default: where the server started); for clients without a workspace."


def _guard(run: Callable[[], dict[str, Any]]) -> Any:
    """The tool's answer: the payload, or the CLI's error object as an ``isError`` result.

    Returned rather than raised: the SDK prefixes a raised error's text with its own words,
    and agents parse this JSON as they parse ``brv ... --json``.
    """
    try:
        payload, failed = run(), False
    except ToolFailure as failure:
        payload, failed = bad_arguments.in_tool_words(failure.payload, failure), True
    return _result(payload, failed)


def _result(payload: dict[str, Any], failed: bool) -> CallToolResult:
    # one json.dumps: the SDK's own conversion of a dict (pydantic, indented) cost ~5 ms a
    # search answer, as much as the search itself. Every answer is scrubbed of credentials
    # (brv_vc.scrub), as the CLI's output is: results quote git, remotes and knowledge too.
    text = json.dumps(scrub_values(payload), ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=failed)


def _resource(run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    try:
        return cast("dict[str, Any]", scrub_values(run()))
    except ToolFailure as failure:
        raise ResourceError(json.dumps(failure.payload, ensure_ascii=False)) from None


class _Server(MCPServer):
    """The SDK's server, answering a call's bad arguments in brv's shape and words."""

    _schemas: dict[str, dict[str, Any]] | None = None

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Any = None) -> Any:
        """Runs tool ``name``; arguments it lacks or that miss its schema get brv's refusal."""
        if self._schemas is None:
            self._schemas = {t.name: t.input_schema for t in await self.list_tools()}
        schema = self._schemas.get(name)
        refused = bad_arguments.unknown(name, schema, arguments)
        if refused is not None:
            return _result(refused, True)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as error:
            if schema is None or not isinstance(error.__cause__, ValidationError):
                raise
            return _result(bad_arguments.invalid(name, schema, error.__cause__.errors()), True)



def build_server(tools: Tools) -> MCPServer:
    """Builds the server with its tools and resources over ``tools``.

    The tools are coroutines on purpose: the SDK runs plain functions in a pool of worker
    threads, and the resident SQLite connections of a search session belong to one thread.
    A stdio server has one client, so answering on the event loop's thread loses nothing.
    """
    server: MCPServer = _Server("brv", version=__version__, instructions=INSTRUCTIONS)

    @server.tool(name="brv-search", description="Ranked entries for a query, with excerpts "
                 "and backlinks (brv search --json). limit 1-50; scope a tree folder; "
                 "record false only looks (brv search --no-record: no hit counted).")
    async def search(query: str, limit: int = 10, scope: str | None = None,
                     cwd: str | None = None, record: bool = True) -> Any:
        return _guard(lambda: tools.search(query, limit, scope, cwd, record))

    @server.tool(name="brv-query", description="Answer a question from the tree through the "
                 "five retrieval tiers, no LLM needed (brv query --json).")
    async def query(question: str, cwd: str | None = None) -> Any:
        return _guard(lambda: tools.query(question, cwd))

    @server.tool(name="brv-curate", description="Apply curate operations: a list of "
                 "{type: ADD|UPDATE|UPSERT|MERGE|DELETE, path, title?, content?, reason, ...}; "
                 "per-operation results as brv curate --ops - --json.")
    async def curate(operations: list[dict[str, Any]], atomic: bool = False, dry_run: bool = False,
               cwd: str | None = None) -> Any:
        return _guard(lambda: tools.curate(operations, atomic, dry_run, cwd))

    @server.tool(name="brv-show", description="One entry with backlinks and signals "
                 "(brv show --json).")
    async def show(path: str, cwd: str | None = None) -> Any:
        return _guard(lambda: tools.show(path, cwd))

    @server.tool(name="brv-about", description="Before opening or changing files: the entries "
                 "that describe them (direct links, then their folders), each with when it was "
                 "written and how often the file changed since (brv about --json).")
    async def about(paths: list[str], cwd: str | None = None) -> Any:
        return _guard(lambda: tools.about(paths, cwd))

    @server.tool(name="brv-stale", description="Entries whose linked files changed, were "
                 "renamed or deleted since they were written, from git history (brv stale --json).")
    async def stale(since: str | None = None, cwd: str | None = None) -> Any:
        return _guard(lambda: tools.stale(since, cwd))

    @server.tool(name="brv-brain", description="The project brain: brief, active and reference "
                 "knowledge within a token budget; pass if_none_match to skip an unchanged one.")
    async def brain(budget: int = 6000, if_none_match: str | None = None,
              cwd: str | None = None) -> Any:
        return _guard(lambda: tools.brain(budget, if_none_match, cwd))

    @server.tool(name="brv-hydrate", description="The context one folder of the tree needs: "
                 "global brief, parent intent, local entries, within a token budget.")
    async def hydrate(path: str = "", budget: int = 4000, cwd: str | None = None) -> Any:
        return _guard(lambda: tools.hydrate(path, budget, cwd))

    @server.tool(name="brv-dehydrate", description="Store a digest of a folder for its "
                 "parents' hydration (the '## Digest' section of its context.md).")
    async def dehydrate(path: str, digest: str, cwd: str | None = None) -> Any:
        return _guard(lambda: tools.dehydrate(path, digest, cwd))

    @server.tool(name="brv-vc-status", description="Knowledge under git: branch, ahead/behind, "
                 "staged, unstaged, untracked, conflicted (brv vc status --json).")
    async def vc_status(cwd: str | None = None) -> Any:
        return _guard(lambda: tools.vc_status(cwd))

    @server.tool(name="brv-vc-diff", description="Semantic knowledge diff: REF against the "
                 "work tree or A..B; markdown=true adds the pull-request comment.")
    async def vc_diff(ref: str | None = None, staged: bool = False, markdown: bool = False,
                cwd: str | None = None) -> Any:
        return _guard(lambda: tools.vc_diff(ref, staged, markdown, cwd))

    @server.resource("brv://brain", name="brain", mime_type="text/markdown",
                     description="The project brain (brv brain).")
    async def brain_resource() -> str:
        return str(_resource(lambda: tools.brain())["document"])

    @server.resource("brv://manifest", name="manifest", mime_type="application/json",
                     description="The token-budgeted manifest of the tree (brv manifest).")
    async def manifest_resource() -> str:
        return json.dumps(_resource(lambda: tools.manifest()), ensure_ascii=False)

    return server


def serve(start: Path, clock: Callable[[], datetime]) -> None:
    """Runs the server on stdio until the client closes it.

    Args:
        start: the folder the server answers for when a call gives no ``cwd``.
        clock: returns "now" for lifecycle signals.
    """
    tools = Tools(start, clock)
    try:
        serve_stdio(build_server(tools))
    finally:
        tools.close()  # the last hits reach the sidecar
