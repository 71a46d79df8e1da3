"""``brv import``: notes of another tool become entries, through one atomic curate batch.

Placement: a note's folders under the imported one become domain / topic / subtopic
(deeper folders fold into the subtopic's name; a note with no folder goes to
``notes/general``, one with one folder to ``<folder>/general``); a ByteRover tree keeps its
own paths. Links (``[[Title]]``, ``[[folder/note|alias]]``, ``memory://permalink``, a
``related`` list) become ``related`` paths when they name a note of the import or an entry
already in the tree (a link may name a note by title, file name, its path in the vault or the
end of that path); the links that name nothing are counted and listed as ``unresolved``.
A note's ``created``/``date`` and ``updated``/``modified`` become ``createdAt``/``updatedAt``.
Notes go in as UPSERTs in one atomic batch, so the audit log and the
derived files follow as for any curate, a second import updates instead of failing, and
nothing is half-imported.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from brv_vc.errors import BrvError, InvalidPathError, NotFoundError, UsageError
from brv_vc.services.curate import CurateResult, run_batch
from brv_vc.services.importers.notes import FLAVOURS, Note, Unreadable, note_files, read_note
from brv_vc.tree.layout import MAX_DEPTH, snake
from brv_vc.tree.names import new_names, normal_title
from brv_vc.tree.project import Project

DEFAULT_DOMAIN, DEFAULT_TOPIC = "notes", "general"


@dataclass(frozen=True)
class Imported:
    """A note and the entry it becomes."""

    source: str
    path: str
    title: str
    related: tuple[str, ...]


@dataclass(frozen=True)
class Unresolved:
    """A link of an imported note that names no note of the import and no entry."""

    source: str
    link: str


@dataclass(frozen=True)
class Skipped:
    """A note left out, and why."""

    source: str
    reason: str


@dataclass(frozen=True)
class ImportResult:
    """What an import did (or, with ``dry_run``, would do)."""

    source: str
    flavour: str
    found: int
    imported: tuple[Imported, ...]
    skipped: tuple[Skipped, ...]
    curate: CurateResult | None
    dry_run: bool
    unresolved: tuple[Unresolved, ...] = ()
    links: tuple[str, ...] = ()  # symbolic links left out (never followed), "dir/" for folders

    @property
    def ok(self) -> bool:
        """True when every note was placed and the batch applied."""
        return not self.skipped and (self.curate is None or self.curate.ok)


def _folder(note: Note, flavour: str) -> str:
    parts = [snake(p) or "untitled" for p in note.source.split("/")[:-1]]
    if flavour == "byterover" and 2 <= len(parts) <= MAX_DEPTH:
        return "/".join(parts)
    if not parts:
        return f"{DEFAULT_DOMAIN}/{DEFAULT_TOPIC}"
    if len(parts) == 1:
        return f"{parts[0]}/{DEFAULT_TOPIC}"
    if len(parts) > MAX_DEPTH:
        parts = [*parts[:2], "_".join(parts[2:])]
    return "/".join(parts)


def _keys(note: Note, path: str) -> list[tuple[int, str]]:
    """The names a link may use for a note, best first: (rank, lowercase name).

    Rank 0: its path in the vault, its entry path, its permalink; 1: its title; then the
    tails of its vault path, longest first (Obsidian links by the shortest unique path).
    """
    source = note.source.removesuffix(".md")
    parts = source.split("/")
    keys = [(0, source), (0, path.removesuffix(".md")), (1, note.title)]
    if note.permalink:
        keys.append((0, note.permalink))
    keys += [(1 + i, "/".join(parts[i:])) for i in range(1, len(parts))]
    return [(rank, key.lower()) for rank, key in keys]


def import_notes(project: Project, folder: Path, now: datetime, *, flavour: str = "markdown",
                 dry_run: bool = False,
                 progress: Callable[[int, int], None] | None = None) -> ImportResult:
    """Imports a folder of markdown notes as entries (see the module docstring).

    ``progress`` is called as (notes read, notes found) while the notes are read.

    Raises:
        UsageError: an unknown flavour.
        NotFoundError: ``folder`` is not a folder.
    """
    if flavour not in FLAVOURS:
        raise UsageError(f"unknown source {flavour!r}", hint=f"use one of {', '.join(FLAVOURS)}")
    if not folder.is_dir():
        raise NotFoundError(f"{folder} is not a folder", hint="give the folder of the notes")
    root = folder.resolve()
    if root == project.tree.resolve() or project.tree.resolve() in root.parents:
        raise UsageError("that folder is inside this project's context tree",
                         hint="import from a folder outside .brv/context-tree")
    skipped: list[Skipped] = []
    placed: list[tuple[Note, str]] = []
    taken: dict[str, str] = {}
    titled: dict[tuple[str, str], tuple[str, str]] = {}
    files, links = note_files(root)
    for done, file in enumerate(files):
        if progress is not None and done % 100 == 0:
            progress(done, len(files))
        note = read_note(root, file, flavour)
        if isinstance(note, Unreadable):
            skipped.append(Skipped(note.source, note.reason))
            continue
        if flavour == "byterover" and file.name in ("context.md", "_index.md"):
            continue  # ByteRover's generated overviews: brv writes its own
        try:
            place = _folder(note, flavour)
        except BrvError as error:
            skipped.append(Skipped(note.source, error.message))
            continue
        twin = titled.get((place, normal_title(note.title)))
        if twin is not None:
            skipped.append(Skipped(note.source, f"{twin[0]} has the same title in the same "
                                                f"folder ({twin[1]}); rename one of them"))
            continue
        # the name curate gives it (tree/names.py): the first one no earlier note took
        path = next(p for n in new_names(note.title) if (p := f"{place}/{n}") not in taken)
        taken[path] = note.source
        titled[(place, normal_title(note.title))] = (note.source, path)
        placed.append((note, path))
    if progress is not None:
        progress(len(files), len(files))
    ranked: dict[str, tuple[int, str]] = {}
    for note, path in placed:
        for rank, key in _keys(note, path):
            if key not in ranked or rank < ranked[key][0]:  # a tie: the first note keeps it
                ranked[key] = (rank, path)
    index = {key: path for key, (_, path) in ranked.items()}
    imported, unresolved = [], []
    for note, path in placed:
        related = []
        for link in note.links:
            target = _resolve(link, index, project)
            if target is None:
                unresolved.append(Unresolved(note.source, link))
            elif target != path:
                related.append(target)
        imported.append(Imported(note.source, path, note.title, tuple(dict.fromkeys(related))))
    ops = [_op(note, item) for (note, _), item in zip(placed, imported, strict=True)]
    # a note left out means nothing goes in (a dry run still checks the others)
    curate = (run_batch(project, ops, now, atomic=True, dry_run=dry_run or bool(skipped))
              if ops else None)
    return ImportResult(str(folder), flavour, len(placed) + len(skipped), tuple(imported),
                        tuple(skipped), curate, dry_run, tuple(unresolved), tuple(links))


def _resolve(link: str, index: dict[str, str], project: Project) -> str | None:
    """The entry a link names: a note of the import, else an entry already in the tree.

    Contained: a link that climbs out (``../``), is absolute or goes through a symlink
    names nothing, so no path outside the tree ever becomes a ``related`` path.
    """
    key = link.strip().removesuffix(".md").lstrip("/").lower()
    if key in index:
        return index[key]
    if "/" not in key:
        return None
    try:
        path = project.path_of(f"{key}.md")  # refuses '..', absolute paths and links
    except InvalidPathError:
        return None
    return project.relpath(path) if path.is_file() else None


def _op(note: Note, item: Imported) -> dict[str, Any]:
    op: dict[str, Any] = {"type": "UPSERT", "path": item.path.rsplit("/", 1)[0],
                          "title": note.title, "content": note.content,
                          "reason": f"imported from {note.source}"}
    if note.summary:
        op["summary"] = note.summary[:2000]
    if note.tags:
        op["tags"] = list(note.tags)[:200]
    if item.related:
        op["related"] = list(item.related)[:200]
    if note.permalink:
        op["keywords"] = [note.permalink]
    if note.created:
        op["createdAt"] = note.created
    if note.updated or note.created:
        op["updatedAt"] = note.updated or note.created
    return op
