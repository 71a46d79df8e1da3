"""``brv show`` and ``brv relations``: an entry with its links and signals.

Reading never writes the tree (the index and the sidecar live under ``.brv/state``), and
``show`` records no search hit: looking at an entry is not a retrieval. ``show`` also reads
what search can return besides entries (archive stubs, summaries) and says what they are.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from brv_vc.errors import NotFoundError
from brv_vc.index import relations
from brv_vc.index.entries import dates_of
from brv_vc.lifecycle import scoring
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, clean_relpath, kind_of, misplaced
from brv_vc.tree.project import Project


@dataclass(frozen=True)
class SignalsView:
    """Scoring signals decayed to now (nothing is stored by computing them)."""

    importance: float
    recency: float
    maturity: str
    access_count: int
    update_count: int
    stored: bool


@dataclass(frozen=True)
class DanglingRelation:
    """A relation whose target is neither an entry nor a folder of the tree."""

    source: str
    target: str


@dataclass(frozen=True)
class ShowResult:
    """One entry, its relations and its signals."""

    path: str
    title: str
    frontmatter: dict[str, Any]
    body: str
    relations: tuple[str, ...]
    backlinks: tuple[str, ...]
    dangling: tuple[str, ...]
    signals: SignalsView | None  # None for derived files (stubs, summaries): never scored
    notes: tuple[str, ...] = ()
    kind: str = "entry"  # a tree.layout.Kind value: entry, context, archive_stub, summary...


@dataclass(frozen=True)
class DanglingResult:
    """Every dangling relation of the tree."""

    dangling: tuple[DanglingRelation, ...]
    notes: tuple[str, ...] = ()


def _entry_path(project: Project, path: str) -> str:
    clean = clean_relpath(path, what="entry path")
    if not clean.endswith(".md") and (project.tree / (clean + ".md")).is_file():
        clean += ".md"
    return clean


def _not_there(project: Project, relpath: str) -> None:
    """Raises the right NotFoundError when no file is at ``relpath`` (archived or absent)."""
    from brv_vc.tree.layout import archive_paths

    entry = relpath if relpath.endswith(".md") else relpath + ".md"
    stub = archive_paths(entry)[0]
    if not relpath.startswith(ARCHIVE_DIR + "/") and (project.tree / stub).is_file():
        raise NotFoundError(
            f"'{entry}' is archived (its stub is {stub})",
            file=entry,
            hint=f"bring it back with 'brv restore {entry}', or read the stub: brv show {stub}",
        )
    if not project.path_of(relpath).exists():
        raise NotFoundError(
            f"no entry at '{relpath}'",
            file=relpath,
            hint="list the entries with 'brv tree' or find one with 'brv search'",
        )


_DERIVED = {
    Kind.STUB: "the archive stub of {original} (searchable; the entry itself is archived): "
               "bring it back with 'brv restore {original}'",
    Kind.FULL: "the archived full text of {original}: bring it back with "
               "'brv restore {original}'",
    Kind.SUMMARY: "the derived summary of {folder} (brv regenerates it from the entries; "
                  "edit those instead)",
    Kind.ABSTRACT: "the derived abstract of {original} (brv regenerates it; edit the entry)",
    Kind.OVERVIEW: "the derived overview of {original} (brv regenerates it; edit the entry)",
}


def _show_derived(project: Project, relpath: str, kind: Kind) -> ShowResult:
    """A stub, archived copy, summary, abstract or overview: its text and what it is."""
    from brv_vc.errors import FormatError
    from brv_vc.format import frontmatter as fm
    from brv_vc.format.entry import decode
    from brv_vc.summary.abstracts import entry_of
    from brv_vc.summary.archive import original_of
    from brv_vc.tree.store import read_bytes

    data = read_bytes(project, relpath)
    text = decode(data, file=relpath)
    values: dict[str, Any] = {}
    try:
        source, body = fm.split(text, file=relpath)
        values = {f.key: f.value for f in fm.load(source, file=relpath)} if source else {}
    except FormatError:
        body = text  # a hand-damaged derived file: show it as it is
    derived_entry = kind in (Kind.ABSTRACT, Kind.OVERVIEW)
    original = entry_of(relpath) if derived_entry else original_of(relpath)
    folder = relpath.rsplit("/", 1)[0] + "/" if "/" in relpath else "the whole tree"
    note = f"{relpath} is " + _DERIVED[kind].format(original=original, folder=folder)
    titles = {Kind.STUB: f"Archived: {original}", Kind.SUMMARY: f"Summary of {folder}",
              Kind.ABSTRACT: f"Abstract of {original}", Kind.OVERVIEW: f"Overview of {original}"}
    title = titles.get(kind) or str(values.get("title") or f"Archived: {original}")
    return ShowResult(relpath, title, values, body, (), (), (), None, (note,), kind.value)


def show_entry(
    project: Project, path: str, *, now: datetime, title: str | None = None
) -> ShowResult:
    """Reads one entry with its backlinks, dangling relations and scoring signals.

    Args:
        project: the project.
        path: the entry's tree path (``.md`` optional), or its folder when ``title`` is given.
        now: the clock (signals are decayed to it, not stored).
        title: find the entry of exactly this title in the folder ``path``.

    Returns:
        The entry.

    Raises:
        NotFoundError: no such entry. FormatError: the file does not parse.
        InvalidPathError: the path escapes the tree.
    """
    from brv_vc.format.entry import FIELD_ORDER
    from brv_vc.lifecycle.sidecar import get_many
    from brv_vc.tree.statedb import open_state
    from brv_vc.tree.store import read_entry

    if title is None:
        relpath = _entry_path(project, path)
    else:
        from brv_vc.services.curate import entry_titled

        relpath = entry_titled(project, clean_relpath(path, what="folder"), title)
    kind = kind_of(relpath)
    if not project.path_of(relpath).is_file():
        _not_there(project, relpath)
    if kind in _DERIVED:
        return _show_derived(project, relpath, kind)
    entry = read_entry(project, relpath)
    with open(project.path_of(relpath), "rb") as handle:
        stray = misplaced(relpath, handle.read(4096))  # a synthesis in a domain folder is not

    def work(opened: OpenIndex) -> tuple[tuple[str, ...], tuple[str, ...], Any]:
        back = tuple(relations.backlinks(opened.conn, relpath))
        bad = tuple(link.raw for link in relations.dangling(opened.conn, relpath))
        return back, bad, dates_of(opened.conn, relpath)

    (back, bad, row), notes = with_index(project, work)
    state = open_state(project)
    try:
        stored = get_many(state, [relpath]).get(relpath)
    finally:
        state.close()
    moment = now.timestamp()
    if stored is None:
        since = (row[0] if row[0] is not None else row[1] / 1e9) if row else moment
        stored_signals, has_row = scoring.Signals(updated_at=since, scored_at=since), False
    else:
        stored_signals, has_row = stored, True
    current = scoring.at(stored_signals, moment)
    values = {
        "title": entry.title,
        "summary": entry.summary,
        "tags": list(entry.tags),
        "keywords": list(entry.keywords),
        "related": list(entry.related),
        "createdAt": entry.created_at,
        "updatedAt": entry.updated_at,
    }
    frontmatter = {k: values[k] for k in FIELD_ORDER} | dict(entry.extra)
    return ShowResult(
        path=relpath,
        title=entry.title,
        frontmatter=frontmatter,
        body=entry.body,
        relations=entry.relations(),
        backlinks=back,
        dangling=bad,
        signals=SignalsView(
            importance=round(current.importance, 1),  # the one scale: 0-100, one decimal
            recency=round(scoring.recency(current, moment), 4),
            maturity=current.maturity,
            access_count=current.access_count,
            update_count=current.update_count,
            stored=has_row,
        ),
        notes=(*notes, *([f"{relpath} {stray}"] if stray else [])),
        kind=kind.value,
    )


def dangling_relations(project: Project, path: str | None = None) -> DanglingResult:
    """Lists relations (frontmatter ``related`` and ``@`` lines) that lead nowhere.

    Args:
        project: the project.
        path: only this entry's relations (``.md`` optional); None for the whole tree.

    Raises:
        NotFoundError: ``path`` names no entry (or an archived one).
    """
    source = _existing(project, path) if path else None
    links, notes = with_index(project, lambda opened: relations.dangling(opened.conn, source))
    return DanglingResult(
        tuple(DanglingRelation(link.source, link.raw) for link in links), tuple(notes)
    )


@dataclass(frozen=True)
class RelationView:
    """One relation an entry declares, as written, and whether it leads anywhere."""

    target: str
    resolves: bool


@dataclass(frozen=True)
class RelationsResult:
    """An entry's relations (what it names) and backlinks (entries that name it)."""

    path: str
    relations: tuple[RelationView, ...]
    backlinks: tuple[str, ...]
    notes: tuple[str, ...] = ()


def _existing(project: Project, path: str) -> str:
    relpath = _entry_path(project, path)
    if not project.path_of(relpath).is_file():
        _not_there(project, relpath)
        raise NotFoundError(f"'{relpath}' is a folder, not an entry", file=relpath)
    return relpath


def entry_relations(project: Project, path: str) -> RelationsResult:
    """Lists one entry's relations (each marked resolving or dangling) and its backlinks.

    Args:
        project: the project.
        path: the entry's tree path (``.md`` optional).

    Returns:
        The relations, in the entry's order, and the backlinks, sorted.

    Raises:
        NotFoundError: no such entry (an archived one points to ``brv restore``).
        InvalidPathError: the path escapes the tree.
    """
    relpath = _existing(project, path)

    def work(opened: OpenIndex) -> tuple[tuple[RelationView, ...], tuple[str, ...]]:
        conn = opened.conn
        links = tuple(
            RelationView(link.raw, relations.resolves(conn, link.target))
            for link in relations.forward(conn, relpath)
        )
        return links, tuple(relations.backlinks(conn, relpath))

    (links, back), notes = with_index(project, work)
    return RelationsResult(relpath, links, back, tuple(notes))
