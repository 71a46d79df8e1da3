"""What flows between the curate stages: a :class:`Target` (resolved), then a :class:`Plan` (built).

Only data lives here, so every stage can name these types without importing another stage.
"""

from __future__ import annotations

from dataclasses import dataclass

from brv_vc.format.entry import Entry


@dataclass(frozen=True)
class Target:
    """One operation resolved against the tree: the paths it touches and the entries there.

    ``kind`` is ``add``, ``update``, ``merge``, ``delete_entry`` or ``delete_folder`` (an UPSERT
    resolves to ``add`` or ``update``).
    """

    kind: str
    rel: str  # the entry (or folder) written or deleted; MERGE: the target entry
    segments: tuple[str, ...] = ()  # add: the entry's domain/topic[/subtopic]
    entry: Entry | None = None  # update: the entry as it is; merge: the target entry
    source: str = ""  # merge: the entry folded into ``rel``
    source_entry: Entry | None = None
    files: tuple[str, ...] = ()  # delete_folder: every file that goes with the folder
    entries: int = 0  # delete_folder: how many of them are entries


@dataclass(frozen=True)
class Plan:
    """One operation's effect: files to write, paths to delete, sidecar actions to record."""

    action: str  # added | updated | merged | deleted | unchanged
    file: str
    writes: tuple[tuple[str, bytes], ...] = ()
    deletes: tuple[str, ...] = ()
    sidecar: tuple[tuple[str, ...], ...] = ()
    changed: tuple[str, ...] = ()
    message: str = ""
    entry: Entry | None = None  # the entry as the operation leaves it (the check stage sizes it)
