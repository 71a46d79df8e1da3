"""The best excerpt of a document: the 800-character window richest in query terms.

Windows overlap by 120 characters (byterover-cli.md §5.1), so a passage cut by one window
boundary is whole in the next.
"""

from __future__ import annotations

WINDOW = 800
OVERLAP = 120
SHORT = 117


def _count(text: str, needles: list[str]) -> int:
    return sum(text.count(n) for n in needles)


def best_window(content: str, needles: list[str]) -> str:
    """Returns the window with the most occurrences of ``needles`` (lowercase), stripped."""
    lowered = content.lower()
    best_start, best_hits = 0, -1
    step = WINDOW - OVERLAP
    for start in range(0, max(1, len(content) - OVERLAP), step):
        hits = _count(lowered[start : start + WINDOW], needles)
        if hits > best_hits:
            best_start, best_hits = start, hits
    return " ".join(content[best_start : best_start + WINDOW].split())


def shorten(excerpt: str, needles: list[str], width: int = SHORT) -> str:
    """A one-line cut of ``width`` characters around the first matching term."""
    if len(excerpt) <= width:
        return excerpt
    lowered = excerpt.lower()
    positions = [p for n in needles if (p := lowered.find(n)) >= 0]
    start = max(0, min(positions) - width // 3) if positions else 0
    start = min(start, len(excerpt) - width)
    cut = excerpt[start : start + width]
    return ("..." if start else "") + cut + ("..." if start + width < len(excerpt) else "")
