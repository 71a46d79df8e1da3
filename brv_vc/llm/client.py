"""One call to an OpenAI-compatible chat-completions endpoint, over stdlib ``urllib``.

The key is read from the environment variable the settings name and is sent only in the
``Authorization`` header: it is never logged and never part of an error message.
Transient failures (timeouts, connection errors, HTTP 429 and 5xx) are retried after
500 ms, 1 s and 2 s (byterover-cli.md §6: backoff from 500 ms); other errors are not.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from brv_vc.errors import ProviderError
from brv_vc.tree.config import LlmSettings

BACKOFF = (0.5, 1.0, 2.0)
_MAX_BODY = 4 * 1024 * 1024


@dataclass(frozen=True)
class ToolCall:
    """A tool the model asked to run."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Completion:
    """The model's reply: text and/or tool calls."""

    content: str
    tool_calls: tuple[ToolCall, ...]


class _Retry(Exception):
    """A transient failure; ``reason`` is safe to show."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _endpoint(settings: LlmSettings) -> str:
    return settings.base_url.rstrip("/") + "/chat/completions"


def _post(settings: LlmSettings, payload: bytes) -> bytes:
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    key = os.environ.get(settings.api_key_env) if settings.api_key_env else None
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(_endpoint(settings), data=payload, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=settings.timeout_seconds) as response:
            body: bytes = response.read(_MAX_BODY + 1)
    except urllib.error.HTTPError as exc:
        if exc.code == 429 or exc.code >= 500:
            raise _Retry(f"HTTP {exc.code}") from None
        detail = exc.read(300).decode("utf-8", "replace").strip()
        if key:
            detail = detail.replace(key, "***")
        raise ProviderError(
            f"the LLM provider refused the request: HTTP {exc.code} {exc.reason}"
            + (f": {detail}" if detail else ""),
            hint="check llm.base_url and llm.model in .brv/config.yaml and the API key variable",
        ) from None
    except TimeoutError:
        raise _Retry(f"no answer within {settings.timeout_seconds:g} s") from None
    except (urllib.error.URLError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise _Retry(f"cannot connect ({reason})") from None
    if len(body) > _MAX_BODY:
        raise ProviderError("the LLM provider's reply is larger than 4 MB")
    return body


def _garbage(why: str) -> ProviderError:
    return ProviderError(
        f"the LLM provider's reply is not a chat completion ({why})",
        hint="check that llm.base_url points at an OpenAI-compatible /v1 endpoint",
    )


def parse_completion(body: bytes) -> Completion:
    """Reads a chat-completions response body.

    Raises:
        ProviderError: not JSON, or not shaped like a chat completion.
    """
    try:
        data = json.loads(body)
        message = data["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise _garbage("no choices[0].message") from None
    if not isinstance(message, dict):
        raise _garbage("message is not an object")
    content = message.get("content") or ""
    if not isinstance(content, str):
        raise _garbage("content is not a string")
    calls = []
    for raw in message.get("tool_calls") or []:
        try:
            function = raw["function"]
            arguments = function.get("arguments") or "{}"
            parsed = json.loads(arguments) if isinstance(arguments, str) else arguments
            if not isinstance(parsed, dict):
                raise TypeError
            calls.append(ToolCall(str(raw.get("id") or ""), str(function["name"]), parsed))
        except (ValueError, KeyError, TypeError, AttributeError):
            raise _garbage("a tool call is malformed") from None
    if not content and not calls:
        raise _garbage("empty message")
    return Completion(content, tuple(calls))


def complete(
    settings: LlmSettings,
    messages: list[dict[str, Any]],
    *,
    temperature: float,
    max_tokens: int,
    tools: list[dict[str, Any]] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    retries: int = len(BACKOFF),
) -> Completion:
    """Sends one chat-completions request.

    Args:
        settings: provider settings from ``.brv/config.yaml``.
        messages: OpenAI-style messages.
        temperature: sampling temperature.
        max_tokens: the reply budget.
        tools: OpenAI-style function tools, if any.
        sleep: waits between retries (injectable so tests do not wait).
        retries: how many transient failures to retry (0: one attempt, no sleep; the
            refresh after a tree change cannot wait for a backoff).

    Returns:
        The reply.

    Raises:
        ProviderError: timeout or connection failure after 3 retries, an HTTP error, or a
            reply that is not a chat completion.
    """
    payload: dict[str, Any] = {
        "model": settings.model,
        "messages": messages,
        "temperature": temperature,
        "max_tokens": max_tokens,
    }
    if tools:
        payload["tools"] = tools
    body = json.dumps(payload).encode("utf-8")
    last = ""
    tries = max(0, min(retries, len(BACKOFF))) + 1
    for attempt in range(tries):
        if attempt:
            sleep(BACKOFF[attempt - 1])
        try:
            return parse_completion(_post(settings, body))
        except _Retry as retry:
            last = retry.reason
    raise ProviderError(
        f"the LLM provider at {settings.base_url} failed"
        + (f" {tries} times: " if tries > 1 else ": ")
        + last,
        hint="check that the provider is running, or raise llm.timeout_seconds",
    )
