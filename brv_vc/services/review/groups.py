"""Which review entries one decision is about: named ones, a group, and what built on them.

A group is every pending entry of one kind (MERGE, ARCHIVE, DELETE...), one domain (the
domain of the file it is about) or one task (a dream's id), or all of them; the filters
given together narrow each other. Rejecting an entry puts its files back as they were before
it, so every later entry that touched one of those files (pending or approved, and what
built on those in turn) is undone with it: its bytes were made from the ones going away.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from brv_vc.services.review.entries import PENDING, REJECTED, ReviewEntry


@dataclass(frozen=True)
class Group:
    """What a reviewer named: ids, files, and the group filters (None: any)."""

    ids: tuple[int, ...] = ()
    files: tuple[str, ...] = ()
    everything: bool = False
    kind: str | None = None
    domain: str | None = None
    task: str | None = None

    @property
    def filtered(self) -> bool:
        """True when a group filter (kind, domain, dream) was given."""
        return any(v is not None for v in (self.kind, self.domain, self.task))

    @property
    def empty(self) -> bool:
        """True when nothing at all was named."""
        return not (self.ids or self.files or self.everything or self.filtered)

    def matches(self, entry: ReviewEntry) -> bool:
        """True when ``entry`` is in the group of the filters (every filter holds)."""
        return ((self.kind is None or entry.kind.upper() == self.kind.upper().replace("-", "_"))
                and (self.domain is None or entry.domain == self.domain.strip("/"))
                and (self.task is None or entry.task == self.task))

    def describe(self) -> str:
        """``kind MERGE, domain api`` (for a message)."""
        parts = [f"{name} {value}" for name, value in
                 (("kind", self.kind), ("domain", self.domain), ("dream", self.task))
                 if value is not None]
        return ", ".join(parts) or "all"


@dataclass(frozen=True)
class Pulled:
    """An entry undone with a rejected one: it built on entry ``on`` (``was``: its status)."""

    entry: ReviewEntry
    on: int
    was: str  # pending | approved


def dependents(every: Iterable[ReviewEntry], chosen: Sequence[ReviewEntry]) -> list[Pulled]:
    """The later entries, not rejected, that built on ``chosen`` (or on one pulled in).

    Each touched a file that one of them touched before it: reverting the chosen restores
    bytes these were made from.

    Args:
        every: the queue's entries (any status), in id order.
        chosen: the entries to reject.
    """
    picked = {e.id for e in chosen}
    if not picked:
        return []
    first = min(picked)
    owner: dict[str, int] = {}  # path -> the latest entry going away that touched it
    out: list[Pulled] = []
    for entry in every:
        if entry.id < first or entry.status == REJECTED:
            continue
        if entry.id not in picked:
            on = next((owner[p] for p in entry.paths if p in owner), None)
            if on is None:
                continue
            out.append(Pulled(entry, on, entry.status))
        for path in entry.paths:
            owner[path] = entry.id
    return out


def still_needed(every: Sequence[ReviewEntry]) -> set[str]:
    """The backups a reject may still need.

    Those of the pending entries and of every entry that built on one (an approved one is
    undone with the pending entry it built on).
    """
    pending = [e for e in every if e.status == PENDING]
    needed = [*pending, *(p.entry for p in dependents(every, pending))]
    return {h for e in needed for c in e.changes for h in (c.before, c.after) if h}
