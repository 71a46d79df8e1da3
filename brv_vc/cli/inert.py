r"""Inert terminal output: control characters are printed as ``\u001b``, never as themselves.

Titles, content, paths, commit messages and remotes come from teammates' commits; printed
raw, ``ESC ] 0 ; ... BEL`` retitles the terminal and ``ESC [ 2 J`` clears it (issue 22). One
boundary escapes them all: :func:`inert_streams` wraps ``sys.stdout`` and ``sys.stderr`` for
the whole run, so no command, renderer or error message can forget it.

Escaped: C0 controls except newline and tab (a carriage return only when no newline follows
it: CRLF text stays readable), DEL, C1 controls (``\x9b`` is CSI on 8-bit terminals) and the
bidirectional overrides and isolates that reorder what is displayed (Trojan Source). The form
``\uXXXX`` is also a JSON escape, and these characters only ever appear inside JSON strings
(``json.dumps`` writes the rest in ASCII), so ``--json`` output stays the same valid JSON.

The same boundary masks credentials (``brv_vc.scrub``): a password in a remote's URL that
git's message quotes, a token in a query string, an ``Authorization`` value, whatever
produced the text.

Click-free and cheap to import: the cold search path (``cli/fast.py``) prints through it.
"""

from __future__ import annotations

import io
import re
import sys

from brv_vc.pattern import lazy

# typing costs ~5 ms to import and this module is on the cold search path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, TextIO

__all__ = ["InertStream", "inert", "inert_streams", "raw_stream"]

# compiled at first use: only text holding a suspect character needs it, and every brv
# process imports this module before it does anything (~0.3 ms of CPU to compile)
_UNSAFE = lazy(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
    "|\r(?!\n)"
)


# one character class (carriage returns included): a single scan finds nothing to do
_SUSPECT = lazy("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def inert(text: str) -> str:
    r"""``text`` with every control character written as ``\uXXXX`` (newline and tab kept)."""
    if text.replace("\n", "").replace("\t", "").isprintable():
        return text  # the common case, in C: every suspect character is unprintable
    if _SUSPECT.search(text) is None:  # e.g. a no-break space: unprintable, yet harmless
        return text
    return _UNSAFE.sub(_escape, text)


class InertStream(io.TextIOBase):
    """A text stream that writes everything through :func:`inert` to ``raw``.

    It offers no ``buffer``: bytes written there would skip the escaping, and click then
    writes text, as it does to any text stream.
    """

    def __init__(self, raw: TextIO) -> None:
        super().__init__()
        self.raw = raw

    def write(self, text: str) -> int:  # type: ignore[override, unused-ignore]
        """Writes ``text`` escaped and its credentials masked (``brv_vc.scrub``).

        click's probe ``write(b"")`` fails, as on any text stream.
        """
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        from brv_vc.scrub import scrub  # at the first write: a silent hook imports none of it

        self.raw.write(inert(scrub(text)))
        return len(text)

    def flush(self) -> None:
        """Flushes the wrapped stream."""
        self.raw.flush()

    def isatty(self) -> bool:
        """As the wrapped stream (click strips styles and draws bars by it)."""
        return self.raw.isatty()

    def fileno(self) -> int:
        """The wrapped stream's descriptor (subprocesses inherit it)."""
        return self.raw.fileno()

    def writable(self) -> bool:
        """Always: it only writes."""
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The wrapped stream's encoding."""
        return str(getattr(self.raw, "encoding", None) or "utf-8")

    @property
    def errors(self) -> str:  # type: ignore[override]
        """The wrapped stream's error handler."""
        return str(getattr(self.raw, "errors", None) or "strict")


def raw_stream(stream: Any) -> Any:
    """The stream under an :class:`InertStream`: for brv's own styling (progress bars, bold)."""
    return stream.raw if isinstance(stream, InertStream) else stream


class inert_streams:
    """Wraps ``sys.stdout`` and ``sys.stderr`` in :class:`InertStream` while the block runs.

    Nested use is harmless (a stream already wrapped is kept); the previous streams come
    back on exit, so a test runner's capture is left as it was.
    """

    def __enter__(self) -> None:
        self._saved = (sys.stdout, sys.stderr)
        if sys.stdout is not None and not isinstance(sys.stdout, InertStream):
            sys.stdout = InertStream(sys.stdout)
        if sys.stderr is not None and not isinstance(sys.stderr, InertStream):
            sys.stderr = InertStream(sys.stderr)

    def __exit__(self, *exc: object) -> None:
        for stream in (sys.stdout, sys.stderr):
            if isinstance(stream, InertStream):
                try:  # noqa: SIM105 - contextlib is not loaded on the cold search path
                    stream.flush()
                except (OSError, ValueError):  # a closed pipe: nothing more to say
                    pass
        sys.stdout, sys.stderr = self._saved
