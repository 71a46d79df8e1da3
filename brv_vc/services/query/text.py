"""Shapes indexed documents into the tier-2 answer text (byterover-cli.md §5.2).

Each document may show up to a character budget. A document over budget keeps every section
heading: the budget is shared out between the sections (short ones whole, long ones cut), and
a cut ends at a sentence end, else a word end, inside the paragraph, marked ``[...]``.
"""

from __future__ import annotations

import re
from itertools import pairwise

MARK = " [...]"
_HEADING = re.compile(r"^#{1,6} ", re.MULTILINE)
_SENTENCE_END = re.compile(r"[.!?…](?=\s)|\n")


def fold_lines(text: str) -> str:
    """The text's lines right-stripped, runs of blank lines folded into one."""
    lines: list[str] = []
    for line in text.strip().splitlines():
        if line.strip() or (lines and lines[-1]):
            lines.append(line.rstrip())
    return "\n".join(lines).strip()


def cut_text(text: str, limit: int) -> str:
    """``text`` whole if it fits, else cut at a sentence or word end with `` [...]`` added.

    Args:
        text: the text to cut.
        limit: the most characters to return, the mark included.

    Returns:
        At most ``limit`` characters (the mark alone when nothing fits with it).
    """
    if len(text) <= limit:
        return text
    room = limit - len(MARK)
    if room <= 0:
        return MARK.strip()[:limit]
    head = text[: room + 1]  # one more: a boundary right at the limit still counts
    floor = room // 2  # a boundary too early would waste half the budget
    ends = [m.end() for m in _SENTENCE_END.finditer(head) if floor <= m.end() <= room]
    if ends:
        cut = head[: ends[-1]]
    else:
        space = head.rfind(" ", floor)
        cut = head[:space] if space > 0 else head[:room]
    return cut.rstrip() + MARK


def _sections(text: str) -> list[str]:
    """The text split before each markdown heading (the preamble, if any, first)."""
    starts = [m.start() for m in _HEADING.finditer(text)]
    bounds = [0, *(s for s in starts if s > 0), len(text)]
    return [text[a:b].strip("\n") for a, b in pairwise(bounds)
            if text[a:b].strip()]


def _shares(sizes: list[int], budget: int) -> list[int]:
    """Water-filling: short parts get their size, the rest split what is left evenly."""
    shares = [0] * len(sizes)
    left, remaining = budget, len(sizes)
    for index in sorted(range(len(sizes)), key=lambda i: sizes[i]):
        shares[index] = min(sizes[index], left // remaining)
        left -= shares[index]
        remaining -= 1
    return shares


def _cut_section(section: str, share: int) -> str:
    if len(section) <= share:
        return section
    heading, newline, rest = section.partition("\n")
    if not _HEADING.match(heading) or not newline:
        return cut_text(section, share)
    room = share - len(heading) - 1
    return heading + "\n" + cut_text(rest.strip("\n"), max(room, len(MARK)))


def readable(text: str, limit: int) -> str:
    """Up to ``limit`` characters of a markdown document, every section heading kept.

    Args:
        text: the document's markdown body.
        limit: the character budget.

    Returns:
        The folded text, whole when it fits; else each section cut to its share.
    """
    out = fold_lines(text)
    if len(out) <= limit:
        return out
    sections = _sections(out)
    joins = 2 * (len(sections) - 1)  # the blank line between sections
    shares = _shares([len(s) for s in sections], max(limit - joins, 0))
    return "\n\n".join(_cut_section(s, n) for s, n in zip(sections, shares, strict=True))


def first_sentences(text: str, limit: int, count: int = 2) -> str:
    """The opening sentences of a document's prose (headings dropped), on one line.

    Args:
        text: the document's markdown body.
        limit: the most characters to return.
        count: the most sentences to return.

    Returns:
        Up to ``count`` first sentences that fit in ``limit``, cut at a word end when the
        first sentence alone is longer.
    """
    prose = " ".join(line.strip() for line in text.splitlines()
                     if line.strip() and not _HEADING.match(line.strip()))
    prose = " ".join(prose.split())
    ends = [*(m.end() for m in _SENTENCE_END.finditer(prose + " ")), len(prose)][:count]
    fitting = [end for end in ends if end <= limit]
    if fitting:
        return prose[: fitting[-1]]
    return cut_text(prose, limit)
