"""A regular expression compiled on its first use, not at import.

``summary/extract.py`` compiles 15 patterns (~1-1.7 ms of CPU) that only the extractive
abstracts and sentence splitting use, yet every ``brv vc`` commit, pull and hook process
imports it (for ``clip``). ``lazy(pattern, flags)`` stands where ``re.compile(pattern,
flags)`` stood: the same methods and attributes, compiled once when one is first asked for.
Type checkers read it as the ``re.Pattern`` it stands for. A layer-0 module.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:

    def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
        """The pattern, compiled on first use."""
        ...

else:

    class lazy:
        """Stands for ``re.compile(pattern, flags)`` until an attribute is first asked for."""

        __slots__ = ("_args", "_compiled")

        def __init__(self, pattern, flags=0):
            self._args = (pattern, flags)
            self._compiled = None

        def __getattr__(self, name):
            if self._compiled is None:
                self._compiled = re.compile(*self._args)
            return getattr(self._compiled, name)

        def __repr__(self):
            return f"lazy({self._args[0]!r}, {self._args[1]!r})"
