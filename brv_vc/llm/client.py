"""One call to an OpenAI-compatible chat-completions endpoint, over stdlib ``urllib``.

The key is read from the environment variable the settings name and is sent only in the
``Authorization`` header, and only to the origin of ``llm.base_url`` (a redirect elsewhere
is followed without it): it is never logged and never part of an error message. When the
settings name a variable that is unset or empty the call fails at once (no request goes out
without the key a hosted API needs); settings without ``api_key_env`` (a keyless local
server) send no ``Authorization`` header.
Transient failures (timeouts, connection errors, HTTP 429 and 5xx) are retried after
500 ms, 1 s and 2 s (byterover-cli.md §6: backoff from 500 ms); other errors are not.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from brv_vc import environment
from brv_vc.errors import ProviderError
from brv_vc.tree.config import LlmSettings

BACKOFF = (0.5, 1.0, 2.0)
_MAX_BODY = 4 * 1024 * 1024
_HINT = "check that llm.base_url points at an OpenAI-compatible /v1 endpoint"
_SHOWN = 60  # characters of a non-JSON reply quoted in an error


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


class Retry(Exception):
    """A transient failure; ``reason`` is safe to show."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def api_key(settings: LlmSettings, section: str = "llm") -> str | None:
    """The key from the variable ``<section>.api_key_env`` names; None when no variable is named.

    ``section``: the settings' section (``llm``, or ``embeddings`` for the semantic lane),
    named in the messages.

    Raises:
        ProviderError: the variable is unset, empty, or holds a line break (which no HTTP
            header can carry). The message names the variable, never its value.
    """
    name = settings.api_key_env
    if not name:
        return None
    raw = environment.get(name)
    key = (raw or "").strip()
    if not key:
        state = "is not set" if raw is None else "is empty"
        raise ProviderError(
            f"the environment variable {name} named by {section}.api_key_env {state}; "
            f"export it or remove {section}: from .brv/config.yaml",
            hint=f"a local server that needs no key: leave api_key_env out of {section}:",
            key=f"{section}.api_key_env",
        )
    if any(ord(c) < 32 or ord(c) == 127 for c in key):
        raise ProviderError(
            f"the environment variable {name} named by {section}.api_key_env holds a control "
            "character (a line break?) and cannot be sent as a key",
            hint=f"export {name} again with the key alone",
            key=f"{section}.api_key_env",
        )
    return key


def _origin(url: str) -> tuple[str, str, int | None]:
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or "").lower(), parts.port or {"http": 80,
                                                                   "https": 443}.get(scheme)


def _opener() -> Any:
    """The default opener with one change: a redirect to another origin drops the key.

    Another scheme, host or port is another origin: the key goes only where ``llm.base_url``
    points.
    """
    import urllib.request

    class _KeyStaysHome(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req: Any, fp: Any, code: int, msg: str, headers: Any,
                             newurl: str) -> Any:
            new = super().redirect_request(req, fp, code, msg, headers, newurl)
            if new is not None and _origin(newurl) != _origin(req.full_url):
                new.remove_header("Authorization")
            return new

    return urllib.request.build_opener(_KeyStaysHome)


def post(settings: LlmSettings, payload: bytes, key: str | None, *,
         path: str = "/chat/completions", who: str = "LLM provider") -> bytes:
    """POSTs JSON to ``base_url + path``; the key only in the header, only to that origin.

    Raises:
        Retry: a transient failure (timeout, connection, HTTP 429 or 5xx).
        ProviderError: another HTTP error (the reply quoted, the key scrubbed), or a reply
            over 4 MB.
    """
    import urllib.error
    import urllib.request

    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    url = settings.base_url.rstrip("/") + path
    request = urllib.request.Request(url, data=payload, headers=headers)
    try:
        with _opener().open(request, timeout=settings.timeout_seconds) as response:
            body: bytes = response.read(_MAX_BODY + 1)
    except urllib.error.HTTPError as exc:
        if exc.code == 429 or exc.code >= 500:
            raise Retry(f"HTTP {exc.code}") from None
        # read past the shown part so a key straddling the cut is still scrubbed whole
        detail = _quote(exc.read(64 * 1024).decode("utf-8", "replace"), key, 300)
        raise ProviderError(
            f"the {who} refused the request: HTTP {exc.code} {exc.reason}"
            + (f": {detail}" if detail else ""),
            hint="check llm.base_url and llm.model in .brv/config.yaml and the API key variable",
        ) from None
    except TimeoutError:
        raise Retry(f"no answer within {settings.timeout_seconds:g} s") from None
    except (urllib.error.URLError, ConnectionError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise Retry(f"cannot connect ({reason})") from None
    if len(body) > _MAX_BODY:
        raise ProviderError(f"the {who}'s reply is larger than 4 MB")
    return body


def _garbage(why: str) -> ProviderError:
    return ProviderError(f"the LLM provider's reply is not a chat completion ({why})", hint=_HINT)


def _quote(text: str, key: str | None, limit: int = _SHOWN) -> str:
    """Reply text safe to show: the key scrubbed, whitespace runs as one space, cut short."""
    if key:
        text = text.replace(key, "***")
    flat = " ".join(text.split())  # an HTML page's line breaks would split the warning
    return flat if len(flat) <= limit else flat[:limit] + "..."


def _not_json(body: bytes, key: str | None) -> ProviderError:
    """The error for a body that does not parse, quoting its first bytes."""
    if not body.strip():
        return ProviderError("the LLM provider's reply is not JSON (it is empty)", hint=_HINT)
    shown = _quote(body.decode("utf-8", "replace"), key)
    return ProviderError(
        f"the LLM provider's reply is not JSON (first bytes: {shown!r})", hint=_HINT
    )


def _message(data: Any, key: str | None) -> Any:
    """``choices[0].message`` of a parsed reply, or a ProviderError saying what is missing."""
    if not isinstance(data, dict):
        raise _garbage(f"a JSON {type(data).__name__}, not an object")
    if "choices" not in data and "error" in data:
        # some servers send their error object with status 200
        error = data["error"]
        detail = error.get("message", error) if isinstance(error, dict) else error
        raise ProviderError(
            f"the LLM provider answered with an error: {_quote(str(detail), key)}", hint=_HINT
        )
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise _garbage("no choices list")
    if not choices:
        raise _garbage("choices is empty")
    first = choices[0]
    if not isinstance(first, dict) or "message" not in first:
        raise _garbage("no choices[0].message")
    return first["message"]


def parse_completion(body: bytes, key: str | None = None) -> Completion:
    """Reads a chat-completions response body.

    Args:
        body: the raw reply.
        key: the API key, scrubbed from any text of the reply quoted in an error.

    Raises:
        ProviderError: not JSON, JSON that is not a chat completion, or a provider error
            object sent with status 200.
    """
    try:
        data = json.loads(body)
    except ValueError:  # UnicodeDecodeError included
        raise _not_json(body, key) from None
    message = _message(data, key)
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
        ProviderError: the variable named by ``api_key_env`` is unset or empty (raised
            before any request), timeout or connection failure after 3 retries, an HTTP
            error, or a reply that is not a chat completion.
    """
    key = api_key(settings)
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
            return parse_completion(post(settings, body, key), key)
        except Retry as retry:
            last = retry.reason
    raise ProviderError(
        f"the LLM provider at {settings.base_url} failed"
        + (f" {tries} times: " if tries > 1 else ": ")
        + last,
        hint="check that the provider is running, or raise llm.timeout_seconds",
    )
