"""The raw output of ``git log -z --raw`` and ``git diff -z --raw``, read in one place.

A log record starts with a 0x01 byte and its format's fields, NUL-separated; its raw changes
follow (``:old_mode new_mode old_blob new_blob status`` then one path, or two for a rename
or copy). Text only: the git adapters (``vc/git/``, ``KnowledgeRepo.git``) run git.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

# A file change: (status letter M/A/D/R/C/T, path before, path after, old blob, new blob).
# Plain tuples: a walk of 10,000 commits holds ~100,000 of them (NamedTuple.__new__ costs
# ~5 us each, a third of the whole parse).
Change = tuple[str, str, str, str, str]


def changes(fields: list[str], start: int = 0, *, cut: int | None = None,
            names: dict[str, str] | None = None) -> list[Change]:
    """The raw changes in ``fields[start:]`` (the output split at NUL).

    Args:
        fields: the NUL-separated fields.
        start: where the raw changes begin.
        cut: keep this many hex digits of each blob id (None: all of them).
        names: one string per path across calls (a cache that stores each path once).
    """
    return _changes(fields, start, cut, (names if names is not None else {}).setdefault)


def records(out: str, head: int, *, cut: int | None = None,
            names: dict[str, str] | None = None) -> Iterator[tuple[list[str], list[Change]]]:
    """Each log record as (its fields, its raw changes), in git's order.

    ``out``: a log run with ``-z --raw --format=%x01<head fields joined by %x00>``; the first
    ``head`` of the fields are the format's, the rest the raw changes (parsed).
    """
    same = (names if names is not None else {}).setdefault
    for chunk in out.split("\x01")[1:]:  # one at a time: a walk's fields are never all held
        fields = chunk.split("\0")
        if len(fields) >= head:
            yield fields, _changes(fields, head, cut, same)


def _changes(fields: list[str], i: int, cut: int | None,
             same: Callable[[str, str], str]) -> list[Change]:
    # a walk of 10,000 commits calls this once per commit: positional, no defaults
    found: list[Change] = []
    end = len(fields)
    while i < end:
        meta = fields[i]
        if meta[:1] == "\n":  # the line break git writes between a log record and its changes
            meta = meta[1:]
        if meta[:1] != ":":
            i += 1
            continue
        parts = meta.split(" ")
        status = parts[4][:1]
        if status in ("R", "C") and i + 2 < end:
            old, new = fields[i + 1], fields[i + 2]
            found.append((status, same(old, old), same(new, new), parts[2][:cut], parts[3][:cut]))
            i += 3
        else:
            path = fields[i + 1] if i + 1 < end else ""
            path = same(path, path)
            found.append((status, path, path, parts[2][:cut], parts[3][:cut]))
            i += 2
    return found
