"""What ``brv mcp`` answers to a request line the MCP SDK cannot read.

The SDK validates each line and silently drops one it cannot read, so the client waits for
an answer that never comes. :func:`refusal_of` runs the SDK's own validation first and, for
a line it would drop, gives the JSON-RPC error to send: -32700 (parse error) for text that
is not JSON, holds a lone surrogate or nests too deeply, -32600 (invalid request) for JSON
that is not a JSON-RPC 2.0 message, -32602 (invalid params) for a tool call repeating a
key in one object (its arguments, or an object inside them such as a curate operation),
and -32600 for a request whose id is no string or integer (the SDK would take it for a
notification). The id is the request's when it can be read, else null.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mcp import types

from brv_vc.format.strict_json import LAST_WINS, DuplicateKey, no_duplicates

LINE_LIMIT = 1 << 26  # the longest request line read (64 MiB)
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
_TOOL_CALL = "tools/call"
# a \\uD800-\\uDBFF escape not followed by a low one, or a low one not after a high one
_LONE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
                   r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}")
# the whole number only: the first 18 digits of a 5,000-digit id are another request's id
_ID = re.compile(r'^\s*\{[^{}\[\]]*?"id"\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,200}")')


def oversized() -> tuple[int, str]:
    """The error for a line longer than :data:`LINE_LIMIT` (its id was never read)."""
    return (INVALID_REQUEST, f"the request line is longer than {LINE_LIMIT >> 20} MiB and was "
            "dropped; send smaller requests (brv-curate: fewer operations per call)")


def _request_id(line: str, parsed: Any) -> Any:
    if isinstance(parsed, dict):
        found = parsed.get("id")
        return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None
    match = _ID.match(line)  # JSON too deep to parse: the id usually comes first
    return json.loads(match.group(1)) if match else None


def _valid_id(value: Any) -> bool:
    """MCP's RequestId: a string or an integer (JSON-RPC 2.0 allows null; MCP does not)."""
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _describe(value: Any) -> str:
    if isinstance(value, float):
        return "NaN" if value != value else "infinite" if abs(value) == float("inf") else (
            f"the fraction {value!r}")
    kinds = {dict: "an object", list: "an array", bool: "a boolean", type(None): "null"}
    return kinds.get(type(value), type(value).__name__)


def _read_request(line: str) -> tuple[Any, int, str] | None:
    """A request the SDK reads but would never answer, or a tool call repeating a key.

    Trigger: a line with a ``method`` and an ``id`` that is no string or integer (an object,
    an array, a boolean, a fraction, NaN, null). Why: the SDK takes it for a notification
    (it has no valid id) and answers nothing, so the client waits forever. Outcome: an
    invalid-request error with ``id: null``, as JSON-RPC 2.0 says when the id cannot be read.
    """
    try:
        parsed = json.loads(line, object_pairs_hook=no_duplicates)
    except DuplicateKey:
        return _repeated_key(line)
    if isinstance(parsed, dict) and "method" in parsed and "id" in parsed \
            and not _valid_id(parsed["id"]):
        return (None, INVALID_REQUEST,
                f"the request's id is {_describe(parsed['id'])}, but an id is a string or an "
                "integer; the request was not run: send it again with such an id")
    return None


def _repeated_key(line: str) -> tuple[Any, int, str] | None:
    """A tool call repeating a key in one object (``"type"`` twice: the last one would win)."""
    try:
        json.loads(line, object_pairs_hook=no_duplicates)
    except DuplicateKey as dup:
        parsed = json.loads(line)
        if not isinstance(parsed, dict) or parsed.get("method") != _TOOL_CALL:
            return None  # not a tool call: the SDK reads it as it always did
        params = parsed.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        return (_request_id(line, parsed), INVALID_PARAMS,
                f"the request repeats the key {dup.key!r} in one JSON object (a {name} call); "
                f"{LAST_WINS}; the tool was not run")
    return None


def refusal_of(line: str) -> tuple[Any, int, str] | None:
    """None when the SDK reads ``line``, else (id, code, message) of the error to answer."""
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except Exception as exc:  # pydantic's ValidationError, whatever its shape
        problem = str(exc).splitlines()[1:2] or [str(exc)]
    else:
        return _read_request(line)  # ~12 us a search call: no text test an escape would dodge
    lone = _LONE.search(line)
    parsed: Any = None
    try:
        parsed = json.loads(line)
    except RecursionError:
        return (_request_id(line, None), PARSE_ERROR,
                "the request nests JSON arrays or objects too deeply to be read; send "
                "flat arguments")
    except ValueError as err:
        return (_request_id(line, None), PARSE_ERROR,
                f"the request line is not JSON: {getattr(err, 'msg', err)}")
    request_id = _request_id(line, parsed)
    if lone:
        return (request_id, PARSE_ERROR,
                f"the request holds a lone surrogate ({lone.group()}), which is not a "
                "Unicode character; send the character itself or a complete surrogate pair "
                "such as \\ud83d\\ude00")
    if "recursion limit" in problem[0]:
        return (request_id, PARSE_ERROR,
                "the request nests JSON arrays or objects too deeply to be read; send "
                "flat arguments")
    return (request_id, INVALID_REQUEST,
            f"the request is not a JSON-RPC 2.0 message: {problem[0].strip()}")
