"""Showing a long build of the search index on stderr (a missing or unreadable index.db).

The index is derived, so a fresh clone or a deleted file means the first search reads every
entry (seconds at 20,000 entries). On a terminal a one-line counter runs while it does and
is erased after; elsewhere nothing is drawn (the service adds a note afterwards when the
build took long). No click and no extra imports: the cold search path loads this module.
"""

from __future__ import annotations

import sys
import time

DRAW_FROM = 500  # files: smaller builds finish before a counter would be read


class Counter:
    """``brv: building the search index (it was missing): 2,000/20,000 files``, redrawn."""

    def __init__(self) -> None:
        self.began = time.monotonic()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        """Redraws the counter (on a terminal, for a build of ``DRAW_FROM`` files or more)."""
        if total < DRAW_FROM or not sys.stderr.isatty():
            return
        sys.stderr.write(f"\rbrv: building the search index (it was missing): "
                         f"{done:,}/{total:,} files")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        """Erases the counter line."""
        if self.drawn:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def install() -> None:
    """Lets every index build of this process show its counter."""
    from brv_vc.services.derived import build_watch

    build_watch.FACTORY = Counter
