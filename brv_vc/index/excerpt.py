"""The best excerpt of a document: the 800-character window richest in query terms.

Windows overlap by 120 characters (byterover-cli.md §5.1), so a passage cut by one window
boundary is whole in the next. Markdown heading lines (``## Narrative``) are left out, and an
excerpt starts at the sentence holding the first matching term, not in the middle of a word.
"""

from __future__ import annotations

import re

WINDOW = 800
OVERLAP = 120
SHORT = 117
_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}(?:[ \t].*)?$", re.MULTILINE)
# where a sentence starts: after end punctuation and a space, or a line break
_SENTENCE_END = re.compile(r"[.!?][\s\"')\]]+|\n")


def _count(text: str, needles: list[str]) -> int:
    return sum(text.count(n) for n in needles)


def _sentence_start(text: str, position: int, floor: int) -> int:
    """Where the sentence holding ``position`` starts (not before ``floor``)."""
    start = floor
    for end in _SENTENCE_END.finditer(text, floor, position):
        start = end.end()
    return start


def best_window(content: str, needles: list[str]) -> str:
    """Returns the window with the most occurrences of ``needles`` (lowercase), stripped.

    It starts at the sentence of the window's first match (headings left out).
    """
    text = _HEADING.sub("", content)
    lowered = text.lower()
    best_start, best_hits = 0, -1
    step = WINDOW - OVERLAP
    for start in range(0, max(1, len(text) - OVERLAP), step):
        hits = _count(lowered[start : start + WINDOW], needles)
        if hits > best_hits:
            best_start, best_hits = start, hits
    window = lowered[best_start : best_start + WINDOW]
    first = min((p for n in needles if (p := window.find(n)) >= 0), default=-1)
    if first >= 0:
        best_start = _sentence_start(text, best_start + first, max(0, best_start - OVERLAP))
    return " ".join(text[best_start : best_start + WINDOW].split())


def shorten(excerpt: str, needles: list[str], width: int = SHORT) -> str:
    """A one-line cut of ``width`` characters around the first matching term."""
    if len(excerpt) <= width:
        return excerpt
    lowered = excerpt.lower()
    positions = [p for n in needles if (p := lowered.find(n)) >= 0]
    start = 0
    if positions:
        first = min(positions)
        start = _sentence_start(excerpt, first, 0)
        if first - start > width // 3:  # a long sentence: start at a word before the match
            space = excerpt.rfind(" ", 0, first - width // 3)
            start = space + 1 if space >= start else start
    cut = excerpt[start : start + width]
    return ("..." if start else "") + cut + ("..." if start + width < len(excerpt) else "")
