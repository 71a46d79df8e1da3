"""The OpenAI-compatible client against a real HTTP server on loopback."""

from __future__ import annotations

import time
from typing import Any

import pytest
from llm_server import ChatServer, reply, tool_call

from brv_vc.errors import ProviderError
from brv_vc.llm.client import Completion, ToolCall, complete
from brv_vc.tree.config import LlmSettings

MESSAGES = [{"role": "user", "content": "hi"}]


def ask(server: ChatServer, **overrides: Any) -> Any:
    """One completion from ``server`` with the test settings (no backoff sleeps)."""
    return complete(
        settings(server, **overrides), MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None
    )


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
            ask(server, api_key_env="TEST_LLM_KEY")
        assert len(server.requests) == 1
    assert "HTTP 401" in info.value.message
    assert "sk-secret-123" not in info.value.message + str(info.value.hint)


def test_an_http_error_page_is_one_line_without_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    page = "<html>\n<body>\n" + "y" * 280 + " sk-secret-123 is not valid</body></html>"
    with ChatServer(lambda r: (403, page)) as server, pytest.raises(ProviderError) as info:
        ask(server, api_key_env="TEST_LLM_KEY")
    assert info.value.message.startswith(
        "the LLM provider refused the request: HTTP 403 Forbidden: <html> <body> yyy"
    )
    assert info.value.message.endswith("...")
    assert "\n" not in info.value.message
    assert "sk-" not in info.value.message


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ('{"choices": []}', "choices is empty"),
        ('{"id": "x"}', "no choices list"),
        ('[1, 2]', "a JSON list, not an object"),
        ('{"choices": [{"index": 0}]}', "no choices[0].message"),
        ('{"choices": [{"message": "hi"}]}', "message is not an object"),
        ('{"choices": [{"message": {"content": 5}}]}', "content is not a string"),
        ('{"choices": [{"message": {"content": ""}}]}', "empty message"),
        (
            '{"choices": [{"message": {"tool_calls": '
            '[{"function": {"name": "x", "arguments": "{bad"}}]}}]}',
            "a tool call is malformed",
        ),
    ],
)
def test_json_that_is_not_a_chat_completion_says_what_is_missing(body: str, why: str) -> None:
    with ChatServer(lambda r: (200, body)) as server:
        with pytest.raises(ProviderError) as info:
            complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None)
        assert len(server.requests) == 1  # a malformed reply is not retried
    assert info.value.message == f"the LLM provider's reply is not a chat completion ({why})"
    assert "not JSON" not in info.value.message


@pytest.mark.parametrize(
    ("body", "shown"),
    [
        ("{not json", "(first bytes: '{not json')"),
        ("not json at all", "(first bytes: 'not json at all')"),
        (
            "<!DOCTYPE html>\n<html>\n  <head><title>502 Bad Gateway</title></head>\n"
            "  <body>nginx says the upstream is gone, and then a lot more text</body></html>",
            "(first bytes: '<!DOCTYPE html> <html> <head><title>502 Bad Gateway</title><...')",
        ),
        ("", "(it is empty)"),
        ("  \n", "(it is empty)"),
    ],
)
def test_a_reply_that_is_not_json_says_so(body: str, shown: str) -> None:
    with ChatServer(lambda r: (200, body)) as server:
        with pytest.raises(ProviderError) as info:
            complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None)
        assert len(server.requests) == 1
    assert info.value.message == f"the LLM provider's reply is not JSON {shown}"
    assert "\n" not in info.value.message
    assert "OpenAI-compatible" in str(info.value.hint)


def test_an_error_object_sent_with_status_200_is_quoted_without_the_key(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    body = '{"error": {"message": "model m not found for key sk-secret-123"}}'
    with ChatServer(lambda r: (200, body)) as server, pytest.raises(ProviderError) as info:
        ask(server, api_key_env="TEST_LLM_KEY")
    assert info.value.message == (
        "the LLM provider answered with an error: model m not found for key ***"
    )


def test_an_error_string_sent_with_status_200_is_quoted() -> None:
    with (
        ChatServer(lambda r: (200, '{"error": "model \\"m\\" not found"}')) as server,
        pytest.raises(ProviderError) as info,
    ):
        complete(settings(server), MESSAGES, temperature=0, max_tokens=5, sleep=lambda s: None)
    assert info.value.message == 'the LLM provider answered with an error: model "m" not found'


def test_a_non_json_reply_never_shows_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    # the key straddles the quoted part's cut: it must be scrubbed before cutting
    body = "x" * 55 + " sk-secret-123 was rejected"
    with ChatServer(lambda r: (200, body)) as server, pytest.raises(ProviderError) as info:
        ask(server, api_key_env="TEST_LLM_KEY")
    assert "not JSON" in info.value.message
    assert "sk-" not in info.value.message


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


UNSET = (
    "the environment variable AUDIT_KEY named by llm.api_key_env is not set; "
    "export it or remove llm: from .brv/config.yaml"
)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, UNSET),
        ("", UNSET.replace("is not set", "is empty")),
        ("  \t", UNSET.replace("is not set", "is empty")),
    ],
)
def test_a_missing_key_fails_before_any_request(
    monkeypatch: pytest.MonkeyPatch, value: str | None, message: str
) -> None:
    if value is None:
        monkeypatch.delenv("AUDIT_KEY", raising=False)
    else:
        monkeypatch.setenv("AUDIT_KEY", value)
    waits: list[float] = []
    with ChatServer(lambda r: reply("should not be asked")) as server:
        with pytest.raises(ProviderError) as info:
            complete(
                settings(server, api_key_env="AUDIT_KEY"),
                MESSAGES,
                temperature=0,
                max_tokens=5,
                sleep=waits.append,
            )
        assert server.requests == []
    assert info.value.message == message
    assert info.value.key == "llm.api_key_env"
    assert "api_key_env out of llm:" in str(info.value.hint)
    assert waits == []  # not a transient failure: no backoff


def test_a_key_with_a_line_break_is_refused_without_showing_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AUDIT_KEY", "sk-secret-123\nsk-other-456")
    with ChatServer(lambda r: reply("no")) as server:
        with pytest.raises(ProviderError) as info:
            ask(server, api_key_env="AUDIT_KEY")
        assert server.requests == []
    assert "AUDIT_KEY" in info.value.message
    assert "control character" in info.value.message
    assert "sk-" not in info.value.message + str(info.value.hint)


def test_a_key_is_sent_without_surrounding_whitespace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AUDIT_KEY", "  sk-secret-123\n")
    with ChatServer(lambda r: reply("ok")) as server:
        complete(settings(server, api_key_env="AUDIT_KEY"), MESSAGES, temperature=0, max_tokens=5)
        assert server.headers[0]["Authorization"] == "Bearer sk-secret-123"


def test_without_api_key_env_no_header_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    # a keyless local server (Ollama, llama.cpp): no variable named, no header, no error,
    # even when a conventional variable happens to be set
    monkeypatch.setenv("OPENAI_API_KEY", "sk-not-for-this-server")
    with ChatServer(lambda r: reply("local")) as server:
        got = complete(settings(server), MESSAGES, temperature=0, max_tokens=5)
        headers = server.headers[0]
    assert got.content == "local"
    assert "Authorization" not in headers
