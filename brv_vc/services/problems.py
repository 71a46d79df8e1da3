"""One shape for "this file could not be processed" in every result (``--json``: an object)."""

from __future__ import annotations

from collections.abc import Iterable

from brv_vc.record import NamedTuple


class FileProblem(NamedTuple):
    """A file a command skipped or failed, and why (``{"path": ..., "message": ...}``)."""

    path: str
    message: str


def file_problems(pairs: Iterable[tuple[str, str]]) -> tuple[FileProblem, ...]:
    """``(path, message)`` pairs as :class:`FileProblem` objects, in the given order."""
    return tuple(FileProblem(path, message) for path, message in pairs)
