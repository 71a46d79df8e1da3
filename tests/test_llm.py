"""The OpenAI-compatible client against a real HTTP server on loopback."""

from __future__ import annotations

import time

import pytest
from llm_server import ChatServer, reply, tool_call

from brv_vc.errors import ProviderError
from brv_vc.llm.client import Completion, ToolCall, complete
from brv_vc.tree.config import LlmSettings

MESSAGES = [{"role": "user", "content": "hi"}]


def settings(server: ChatServer, **kw: object) -> LlmSettings:
    return LlmSettings(base_url=server.base_url, model="test-model", **kw)  # type: ignore[arg-type]


def test_text_reply_and_request_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    with ChatServer(lambda r: reply("hello there")) as server:
        got = complete(
            settings(server, api_key_env="TEST_LLM_KEY"), MESSAGES, temperature=0.3, max_tokens=1024
        )
        headers, body = server.headers[0], server.requests[0]
    assert got == Completion("hello there", ())
    assert body["model"] == "test-model"
    assert body["temperature"] == 0.3
    assert body["max_tokens"] == 1024
    assert body["messages"] == MESSAGES
    assert "tools" not in body
    assert headers["Authorization"] == "Bearer sk-secret-123"


def test_tool_calls_are_parsed() -> None:
    calls = [
        tool_call("search", {"query": "jwt"}, "a"),
        tool_call("read_entry", {"path": "x.md"}, "b"),
    ]
    with ChatServer(lambda r: reply("", calls)) as server:
        got = complete(
            settings(server),
            MESSAGES,
            temperature=0.5,
            max_tokens=2048,
            tools=[{"type": "function", "function": {"name": "search"}}],
        )
        assert server.requests[0]["tools"][0]["function"]["name"] == "search"
    assert got.tool_calls == (
        ToolCall("a", "search", {"query": "jwt"}),
        ToolCall("b", "read_entry", {"path": "x.md"}),
    )


def test_server_errors_are_retried_with_backoff() -> None:
    answers = [(500, "boom"), (503, "busy"), (429, "slow down")]
    waits: list[float] = []
    with ChatServer(lambda r: answers.pop(0) if answers else reply("ok")) as server:
        got = complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=waits.append)
    assert got.content == "ok"
    assert waits == [0.5, 1.0, 2.0]


def test_gives_up_after_three_retries() -> None:
    waits: list[float] = []
    with ChatServer(lambda r: (500, "down")) as server:
        with pytest.raises(ProviderError, match="failed 4 times: HTTP 500"):
            complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=waits.append)
        assert len(server.requests) == 4
    assert waits == [0.5, 1.0, 2.0]


def test_client_errors_are_not_retried_and_never_show_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    with ChatServer(lambda r: (401, "invalid key sk-secret-123")) as server:
        with pytest.raises(ProviderError) as info:
            complete(
                settings(server, api_key_env="TEST_LLM_KEY"),
                MESSAGES,
                temperature=0,
                max_tokens=5,
                sleep=lambda s: None,
            )
        assert len(server.requests) == 1
    assert "HTTP 401" in info.value.message
    assert "sk-secret-123" not in info.value.message + str(info.value.hint)


@pytest.mark.parametrize(
    "body",
    [
        "not json at all",
        '{"choices": []}',
        '{"choices": [{"message": {"content": 5}}]}',
        '{"choices": [{"message": {"content": ""}}]}',
        '{"choices": [{"message": {"tool_calls": '
        '[{"function": {"name": "x", "arguments": "{bad"}}]}}]}',
    ],
)
def test_garbage_is_a_clear_error(body: str) -> None:
    with (
        ChatServer(lambda r: (200, body)) as server,
        pytest.raises(ProviderError, match="not a chat completion"),
    ):
        complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None)


def test_timeout_is_retried_then_reported() -> None:
    def slow(request: dict[str, object]) -> dict[str, object]:
        time.sleep(0.5)
        return reply("late")

    waits: list[float] = []
    with ChatServer(slow) as server, pytest.raises(ProviderError, match="no answer within"):
        complete(
            settings(server, timeout_seconds=0.05),
            MESSAGES,
            temperature=0,
            max_tokens=5,
            sleep=waits.append,
        )
    assert waits == [0.5, 1.0, 2.0]


def test_unreachable_provider() -> None:
    dead = LlmSettings(base_url="http://127.0.0.1:9/v1", model="m", timeout_seconds=1)
    with pytest.raises(ProviderError, match="cannot connect"):
        complete(dead, MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None)
