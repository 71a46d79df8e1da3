"""The one rule for merge-conflict markers: what brv reads as an unresolved conflict.

Every reader asks this module: parsing an entry, curate's check of what it would write,
``vc add``'s warning, ``vc status``, the pre-commit check of staged blobs, ``vc commit``,
``vc push`` and the pre-push hook, and the ``git grep`` that finds committed markers.

A conflict is a *block*: a start line, later a middle line, later an end line, in that
order, each at a line start, as git writes them (``<<<<<<< ours``, ``=======``,
``>>>>>>> theirs``; diff3's ``||||||| base`` may sit between start and middle and changes
nothing). A start or end line is exactly seven ``<`` / ``>`` followed by a space or the end
of the line; a middle line is exactly seven ``=`` (trailing blanks and a carriage return allowed).
Anything else is markdown and is judged the same everywhere: a lone ``<<<<<<< HEAD`` line in
a note about git, a setext heading underline (``=======`` or ``========``), eight-character
runs (``<<<<<<<<``), an indented or mid-line run. A file with a NUL byte in its first 8,000
bytes is binary and holds no markers, as ``git grep -I`` decides.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

START = "<<<<<<<"
BASE = "|||||||"
MIDDLE = "======="
END = ">>>>>>>"
# ``git grep --all-match`` with these finds every file that may hold a block (a superset:
# each marker line begins so); :func:`block_start` on the matching lines decides
GREP_PATTERNS = ("^" + START, "^" + MIDDLE, "^" + END)
_BINARY_PREFIX = 8000  # git's buffer_is_binary looks this far for a NUL


def _opens(line: str, run: str) -> bool:
    """True when ``line`` is a start (or end) marker line made of ``run``."""
    return line.startswith(run) and line[7:8] in ("", " ", "\r")


def block_start(lines: Iterable[tuple[int, str]]) -> int | None:
    """The number of the line opening the first whole block, or None.

    Args:
        lines: (line number, text) in file order; lines that are no marker may be left out
            (``git grep`` hands over only the lines its patterns match).
    """
    start = None
    middle = False
    for number, line in lines:
        if start is None:
            if _opens(line, START):
                start = number
        elif not middle:
            middle = line.rstrip() == MIDDLE
        elif _opens(line, END):
            return start
    return None


def conflict_line(text: str) -> int | None:
    """The 1-based line opening the first conflict block in ``text``, or None.

    A NUL among the first 8,000 characters makes the text binary (for ASCII text, the
    bytes :func:`conflict_line_in` looks at).
    """
    if START not in text or "\0" in text[:_BINARY_PREFIX]:  # free for files that have none
        return None
    return block_start(enumerate(text.split("\n"), 1))


def conflict_line_in(data: bytes) -> int | None:
    """:func:`conflict_line` of a file's bytes; None for a binary file (``git grep -I``)."""
    if b"<<<<<<<" not in data or b"\0" in data[:_BINARY_PREFIX]:
        return None
    return conflict_line(data.decode("utf-8", "replace"))


def has_conflict(data: bytes) -> bool:
    """True when a file's bytes hold a whole conflict block."""
    return conflict_line_in(data) is not None


__all__ = ["BASE", "END", "GREP_PATTERNS", "MIDDLE", "START", "block_start", "conflict_line",
           "conflict_line_in", "has_conflict"]
