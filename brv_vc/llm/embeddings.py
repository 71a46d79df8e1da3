"""One call to an OpenAI-compatible ``/embeddings`` endpoint (the semantic lane's provider).

The same transport as the chat client (:func:`brv_vc.llm.client.post`): stdlib ``urllib``,
the key only in the ``Authorization`` header and only to ``embeddings.base_url``'s origin,
never logged, never quoted in an error. A search cannot wait for a back-off, so a transient
failure is not retried here: the caller falls back to the lexical ranking with a note.
"""

from __future__ import annotations

import json
from typing import Any

from brv_vc.errors import ProviderError
from brv_vc.llm.client import Retry, api_key, post
from brv_vc.tree.config import LlmSettings

WHO = "embeddings endpoint"
_HINT = "check that embeddings.base_url points at an OpenAI-compatible /v1 endpoint"


def _garbage(why: str) -> ProviderError:
    return ProviderError(f"the {WHO}'s reply is not a list of embeddings ({why})", hint=_HINT)


def parse_embeddings(body: bytes, count: int) -> list[list[float]]:
    """The vectors of an ``/embeddings`` reply, in the order of the inputs.

    Raises:
        ProviderError: not JSON, or not ``count`` numeric vectors of one length.
    """
    try:
        data: Any = json.loads(body)
    except ValueError:
        raise _garbage("not JSON") from None
    rows = data.get("data") if isinstance(data, dict) else None
    if not isinstance(rows, list) or len(rows) != count:
        raise _garbage(f"expected {count} items under 'data'")
    ordered = sorted(rows, key=lambda r: r.get("index", 0) if isinstance(r, dict) else 0)
    vectors = []
    for row in ordered:
        vector = row.get("embedding") if isinstance(row, dict) else None
        if not isinstance(vector, list) or not vector or not all(
                isinstance(x, (int, float)) for x in vector):
            raise _garbage("an item has no numeric 'embedding'")
        vectors.append([float(x) for x in vector])
    if len({len(v) for v in vectors}) > 1:
        raise _garbage("vectors of different lengths")
    return vectors


def embed(settings: LlmSettings, texts: list[str]) -> list[list[float]]:
    """Embeds ``texts`` in one request.

    Args:
        settings: where the endpoint is (``embeddings:``, trusted by the caller).
        texts: the inputs.

    Returns:
        One vector per text.

    Raises:
        ProviderError: the key's variable is unset, the endpoint cannot be reached or
            answers with an error, or its reply is not a list of embeddings.
    """
    key = api_key(settings, "embeddings")
    body = json.dumps({"model": settings.model, "input": texts}).encode("utf-8")
    try:
        reply = post(settings, body, key, path="/embeddings", who=WHO)
    except Retry as failed:
        raise ProviderError(f"the {WHO} at {settings.base_url} failed: {failed.reason}",
                            hint="check that the endpoint is running") from None
    return parse_embeddings(reply, len(texts))
