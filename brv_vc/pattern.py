"""A regular expression compiled on its first use, not at import.

``summary/extract.py`` compiles 15 patterns (~1-1.7 ms of CPU) that only the extractive
abstracts and sentence splitting use, yet every ``brv vc`` commit, pull and hook process
imports it (for ``clip``); the format, index and layout modules hold more that a 1-entry
commit never uses (facts, headings, URLs, name checks). ``lazy(pattern, flags)`` stands where ``re.compile(pattern,
flags)`` stood: the same methods and attributes, compiled once when one is first asked for.
Type checkers read it as the ``re.Pattern`` it stands for. A layer-0 module.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import AnyStr

    def lazy(pattern: AnyStr, flags: int = 0) -> re.Pattern[AnyStr]:
        """The pattern, compiled on first use."""
        ...

else:

    class lazy:  # used as re.compile is
        """Stands for ``re.compile(pattern, flags)`` until an attribute is first asked for.

        The first one compiles it and copies the pattern's methods and attributes into the
        instance: later calls find them there at once (no ``__getattr__`` again).
        """

        _compiled = None

        def __init__(self, pattern, flags=0):
            self._args = (pattern, flags)

        def __getattr__(self, name):
            compiled = re.compile(*self._args)
            vars(self).update((n, getattr(compiled, n)) for n in dir(compiled)
                              if not n.startswith("__"))
            self._compiled = compiled
            return getattr(compiled, name)

        def __repr__(self):
            return f"lazy({self._args[0]!r}, {self._args[1]!r})"
