"""The archive (seed 000 "Archive System", byterover-cli.md §7).

Archiving an entry writes ``_archived/<path minus .md>.full.md`` (the original bytes,
verbatim) and ``.stub.md`` (seed 000's frontmatter and a ~220-token ghost cue that stays
searchable and says how to restore), then deletes the original, its abstract/overview and
its sidecar row. Restoring brings the bytes back exactly, with default signals.

The archive's two files are written (and removed after a restore) by
``summary/archive_files.py``, which ``summary/archive_recovery.py`` uses too to finish or undo
a step cut short.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.clock import format_iso, parse_iso
from brv_vc.errors import ConflictError, InvalidPathError, NotFoundError
from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.summary.abstracts import siblings
from brv_vc.summary.archive_files import ArchiveRecord, finish_restore, write_archive
from brv_vc.summary.archive_recovery import settle_archive
from brv_vc.summary.digest import digest
from brv_vc.tree.fault import point
from brv_vc.tree.intents import begin, done
from brv_vc.tree.layout import (
    ARCHIVE_DIR,
    FULL_SUFFIX,
    STUB_SUFFIX,
    Kind,
    archive_paths,
    clean_relpath,
    kind_of,
)
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import entry_paths, read_bytes, write_atomic


@dataclass(frozen=True)
class Candidate:
    """An entry the archive rule selects: draft, decayed importance below 35."""

    path: str
    importance: float
    maturity: str
    signals: str  # "sidecar" or "defaults" (no row: 50 decayed from frontmatter updatedAt)


def original_of(path: str) -> str:
    """Maps an entry, stub or full path to the entry's original tree path."""
    rel = clean_relpath(path)
    if rel.startswith(ARCHIVE_DIR + "/"):
        rel = rel[len(ARCHIVE_DIR) + 1 :]
        for suffix in (STUB_SUFFIX, FULL_SUFFIX):
            if rel.endswith(suffix):
                return rel[: -len(suffix)] + ".md"
    return rel


def _default_clock(data: bytes, fallback: float) -> float:
    stamp = digest(data, stem="entry").updated_at
    try:
        return parse_iso(stamp).timestamp() if stamp else fallback
    except ValueError:
        return fallback


def current_signals(
    row: scoring.Signals | None, data: bytes, mtime: float, now: datetime
) -> tuple[scoring.Signals, str]:
    """The entry's signals at ``now``: its sidecar row, or defaults decayed from its date.

    The defaults date from ``updatedAt``, or the file's mtime when it has none, as
    byterover-cli.md §7 describes.
    """
    if row is not None:
        return scoring.at(row, now.timestamp()), "sidecar"
    start = _default_clock(data, mtime)
    defaults = scoring.Signals(updated_at=start, scored_at=start)
    return scoring.at(defaults, now.timestamp()), "defaults"


def _entry_bytes(project: Project, relpath: str) -> tuple[str, bytes, float]:
    rel = clean_relpath(relpath)
    if kind_of(rel) is not Kind.ENTRY or rel.startswith(ARCHIVE_DIR + "/"):
        raise InvalidPathError(
            f"'{relpath}' is not a knowledge entry (domain/topic[/subtopic]/name.md)",
            file=relpath,
            hint="archive an entry such as auth/jwt/old_draft.md; list candidates with "
            "'brv archive --candidates'",
        )
    path = project.path_of(rel)
    try:
        return rel, read_bytes(project, rel), path.stat().st_mtime
    except (FileNotFoundError, IsADirectoryError):
        raise NotFoundError(
            f"no entry at '{rel}'", file=rel, hint="list candidates with 'brv archive --candidates'"
        ) from None


def archive_entry(project: Project, relpath: str, now: datetime) -> ArchiveRecord:
    """Archives one entry: stub + full copy, then deletes it, its siblings and its sidecar row.

    Summaries, the manifest and the search index are brought up to date by the caller
    (``services.derived.archive`` runs refresh).

    Raises:
        InvalidPathError: the path is not an entry.
        NotFoundError: no such entry.
        ConflictError: another version of this entry is already archived (nothing changed).
    """
    rel, data, mtime = _entry_bytes(project, relpath)
    full = project.tree / archive_paths(rel)[1]
    if full.exists() and full.read_bytes() != data:
        raise ConflictError(
            f"another version of '{rel}' is already archived in {archive_paths(rel)[1]}",
            file=rel,
            hint=f"move the current entry away and run 'brv restore {rel}' to review the "
            f"older version, or delete {archive_paths(rel)[1]} if it is no longer wanted",
        )
    # one recoverable step (docs/robustness.md): a kill anywhere leaves a record the next
    # command uses to finish it (the full copy is complete) or undo it (it is not)
    intent = begin(project, "archive", {"path": rel})
    conn = open_state(project)
    try:
        row = sidecar.get_many(conn, [rel]).get(rel)
        signals, _ = current_signals(row, data, mtime, now)
        record = write_archive(project, rel, data, importance=signals.importance, now=now)
        point("archive-copied")
        target = project.tree / rel
        target.unlink()
        for sibling in siblings(rel):
            (project.tree / sibling).unlink(missing_ok=True)
        sidecar.delete(conn, [rel])
    except BaseException:
        settle_archive(project, rel, now, may_finish=False)
        raise
    finally:
        conn.close()
        done(intent)
    return record


def candidates(project: Project, now: datetime) -> list[Candidate]:
    """Entries the archive rule selects (draft, decayed importance < 35), lowest first."""
    conn = open_state(project)
    try:
        paths = entry_paths(project)
        rows = sidecar.get_many(conn, paths)
        found = []
        for rel in paths:
            path = project.tree / rel
            try:
                data, mtime = path.read_bytes(), path.stat().st_mtime
            except OSError:
                continue
            signals, source = current_signals(rows.get(rel), data, mtime, now)
            if signals.maturity == scoring.DRAFT and signals.importance < scoring.ARCHIVE_THRESHOLD:
                found.append(Candidate(rel, round(signals.importance, 1), signals.maturity, source))
    finally:
        conn.close()
    return sorted(found, key=lambda c: (c.importance, c.path))


def restore_entry(project: Project, path: str, now: datetime) -> ArchiveRecord:
    """Brings an archived entry back byte for byte (default signals) and removes its archive.

    Args:
        project: the project whose tree holds the archive.
        path: the original path, or the stub or full path.
        now: the restore time; the entry starts again with fresh signals dated ``now``.

    Raises:
        NotFoundError: nothing archived at that path.
        ConflictError: an entry already exists at the original path (nothing is changed).
    """
    rel = original_of(path)
    stub_rel, full_rel = archive_paths(rel)
    try:
        data = read_bytes(project, full_rel)
    except FileNotFoundError:
        raise NotFoundError(
            f"nothing archived at '{rel}' (no {full_rel})",
            file=rel,
            hint="archived entries are under .brv/context-tree/_archived/; 'brv search' finds "
            "their stubs",
        ) from None
    target = project.path_of(rel)
    if target.exists():
        raise ConflictError(
            f"an entry already exists at '{rel}'; restoring would overwrite it",
            file=rel,
            hint="rename or archive the current entry first",
        )
    intent = begin(project, "restore", {"path": rel})
    try:
        write_atomic(target, data)
        point("restore-written")
        finish_restore(project, rel, now)
    finally:
        done(intent)
    record = ArchiveRecord(rel, stub_rel, full_rel, format_iso(now), scoring.DEFAULT_IMPORTANCE,
                           count_tokens(data.decode("utf-8", "replace")))
    return record
