"""Who shows a long build of the search index: set by the command line, read by the index.

Services never print; the CLI decides whether a terminal is there to draw on
(``cli/index_notice.py``). A module of its own, with no imports, so setting it costs the
cold search path nothing.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class BuildWatch(Protocol):
        """Called as (files done, files to read) while the index is built, then closed."""

        def __call__(self, done: int, total: int) -> None: ...  # noqa: D102

        def close(self) -> None: ...  # noqa: D102


FACTORY: Callable[[], BuildWatch] | None = None
