"""Counted nouns and the verbs that agree with them: one rule for every message brv prints."""

from __future__ import annotations


def plural(n: int, word: str, many: str = "") -> str:
    """``n`` and ``word`` as a count: ``1 entry``, ``2 entries``, ``0 files``.

    Args:
        n: the count.
        word: the singular noun.
        many: the plural when adding ``s`` is wrong (``entries``, ``are``); default ``word + s``.
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"


def agree(n: int, one: str, many: str) -> str:
    """The word of ``one`` or ``many`` that agrees with a count ``n`` (``describes``/``describe``)."""
    return one if n == 1 else many
