"""The one token counter of the project: about four characters a token.

Every budget (summaries, abstracts, manifest lanes, brain layers) counts with this
function, so budgets agree with each other and never depend on a model's tokenizer.
"""

from __future__ import annotations

CHARS_PER_TOKEN = 4


def count_tokens(text: str) -> int:
    """Returns the estimated token count of ``text`` (ceil of chars / 4)."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def truncate_to_tokens(text: str, budget: int) -> str:
    """Returns the longest prefix of ``text`` that fits ``budget`` tokens.

    Cuts at the last whitespace before the limit when there is one, so words stay whole.
    """
    limit = max(0, budget) * CHARS_PER_TOKEN
    if len(text) <= limit:
        return text
    cut = text[:limit]
    space = cut.rfind(" ")
    if space > limit // 2:
        cut = cut[:space]
    return cut.rstrip()
