"""Tiers 3 and 4 of ``brv query``: one LLM call, or a bounded tool-calling loop over the index.

Tier 3 sends pre-fetched documents in a single call; tier 4 lets the model call the tools
``search`` and ``read_entry`` (seed 002 §4.2).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from brv_vc.errors import BrvError, ProviderError
from brv_vc.llm.client import complete
from brv_vc.tree.config import LlmSettings

TIER3_TOKENS, TIER3_TEMPERATURE = 1024, 0.3
TIER4_TOKENS, TIER4_TEMPERATURE = 2048, 0.5
DOC_CHARS = 5000
READ_CHARS = 8000

SYSTEM = (
    "You answer questions for a software team from its knowledge base (markdown entries in a "
    "context tree). Use only the knowledge you are given or can look up; if it does not hold "
    "the answer, say so plainly. Be concise and cite the entry paths you used."
)

TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "Full-text search of the knowledge base; returns paths, titles, "
            "scores and excerpts.",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 20},
                },
                "required": ["query"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "read_entry",
            "description": "Reads one knowledge entry by its path (e.g. auth/jwt/rotation.md).",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    },
]


def system_prompt(structure: str, extra: str = "") -> str:
    """The system message: the instructions, then the folder summaries when there are any."""
    text = SYSTEM + extra
    if structure:
        text += "\n\nHow the knowledge base is organised (folder summaries):\n\n" + structure
    return text


def single_call(
    settings: LlmSettings, question: str, docs: list[tuple[str, str, str]], *, sleep: Any,
    structure: str = "",
) -> str:
    """Tier 3: one call with the pre-fetched documents and the manifest's folder summaries.

    ``docs`` holds (path, title, content) triples; ``structure`` is the folder summaries
    (:func:`~brv_vc.services.derived.structure_context`).

    Raises:
        ProviderError: a provider failure, or a reply without text.
    """
    context = "\n\n".join(
        f"## {title} ({path})\n{content[:DOC_CHARS]}" for path, title, content in docs
    )
    messages = [
        {"role": "system", "content": system_prompt(structure)},
        {"role": "user", "content": f"Question: {question}\n\nKnowledge:\n\n{context}"},
    ]
    reply = complete(
        settings, messages, temperature=TIER3_TEMPERATURE, max_tokens=TIER3_TOKENS, sleep=sleep
    )
    if not reply.content.strip():
        raise ProviderError("the LLM provider answered with tool calls instead of text")
    return reply.content.strip()


def agentic_loop(
    settings: LlmSettings,
    question: str,
    *,
    search: Callable[[str, int], list[dict[str, Any]]],
    read: Callable[[str], str],
    max_iterations: int,
    sleep: Any,
    structure: str = "",
) -> tuple[str, list[str]]:
    """Tier 4: lets the model call ``search`` and ``read_entry`` until it answers.

    Returns:
        (answer, paths the model read).

    Raises:
        ProviderError: a provider failure, or no answer within ``max_iterations`` calls.
    """
    messages: list[dict[str, Any]] = [
        {"role": "system",
         "content": system_prompt(structure, " Use the tools to find the knowledge first.")},
        {"role": "user", "content": question},
    ]
    read_paths: list[str] = []
    for _ in range(max_iterations):
        reply = complete(
            settings,
            messages,
            temperature=TIER4_TEMPERATURE,
            max_tokens=TIER4_TOKENS,
            tools=TOOLS,
            sleep=sleep,
        )
        if not reply.tool_calls:
            return reply.content.strip(), read_paths
        messages.append(
            {
                "role": "assistant",
                "content": reply.content or None,
                "tool_calls": [
                    {
                        "id": c.id,
                        "type": "function",
                        "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                    }
                    for c in reply.tool_calls
                ],
            }
        )
        for call in reply.tool_calls:
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.id,
                    "content": _run_tool(call, search, read, read_paths),
                }
            )
    raise ProviderError(
        f"the agentic loop gave no answer within {max_iterations} iterations",
        hint="raise --max-iterations, or ask a narrower question",
    )


def _run_tool(
    call: Any,
    search: Callable[[str, int], list[dict[str, Any]]],
    read: Callable[[str], str],
    read_paths: list[str],
) -> str:
    """Runs one tool call; errors go back to the model as text, never raised."""
    try:
        if call.name == "search":
            limit = int(call.arguments.get("limit") or 5)
            return json.dumps(search(str(call.arguments.get("query", "")), max(1, min(limit, 20))))
        if call.name == "read_entry":
            path = str(call.arguments.get("path", ""))
            text = read(path)
            read_paths.append(path)
            return text[:READ_CHARS]
        return f"error: unknown tool {call.name!r}; use search or read_entry"
    except BrvError as exc:
        return f"error: {exc.message}"
    except (TypeError, ValueError) as exc:
        return f"error: bad arguments ({exc})"
