"""The archive (seed 000 "Archive System", byterover-cli.md §7).

Archiving an entry writes ``_archived/<path minus .md>.full.md`` (the original bytes,
verbatim) and ``.stub.md`` (seed 000's frontmatter and a ~220-token ghost cue that stays
searchable and says how to restore), then deletes the original, its abstract/overview and
its sidecar row. Restoring brings the bytes back exactly, with default signals.

:func:`write_archive` and :func:`archive_entry` are a public interface: ``vc`` rebuilds the
archive of other clones from git history with :func:`write_archive`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from brv_vc.clock import format_iso, parse_iso
from brv_vc.errors import ConflictError, InvalidPathError, NotFoundError
from brv_vc.format.frontmatter import quote
from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.summary.abstracts import siblings
from brv_vc.summary.budgets import GHOST_CUE_TOKENS, GHOST_INPUT_CHARS
from brv_vc.summary.digest import Digest, digest
from brv_vc.summary.documents import Document
from brv_vc.summary.engine import EXTRACTIVE, Engine, generate
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
from brv_vc.tree.store import entry_paths, read_bytes, remove_empty_parents, write_atomic


@dataclass(frozen=True)
class ArchiveRecord:
    """One archived entry: where its stub and full copy are, and its lineage."""

    original_path: str
    stub_path: str
    full_path: str
    evicted_at: str
    evicted_importance: float
    original_token_count: int
    title: str = ""  # the entry's title: search lists the stub under it


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


def render_stub(record: ArchiveRecord, cue: str) -> bytes:
    """The stub's bytes: seed 000's frontmatter, the cue, how to restore.

    Keys are sorted as in the seed; ``title`` (the entry's title, which search shows) is
    added to the seed's keys, so a stub is found under the name its entry had.
    """
    lines = [
        "---",
        f"evicted_at: {quote(record.evicted_at)}",
        f"evicted_importance: {record.evicted_importance}",
        f"original_path: {quote(record.original_path)}",
        f"original_token_count: {record.original_token_count}",
        f"points_to: {quote(record.full_path)}",
        *([f"title: {quote(record.title)}"] if record.title else []),
        "type: archive_stub",
        "---",
        "",
        cue.strip(),
        "",
        f"Archived by brv. The full text is in {record.full_path}; bring it back with "
        f"`brv restore {record.original_path}`.",
        "",
    ]
    return "\n".join(lines).encode("utf-8")


def write_archive(
    project: Project,
    relpath: str,
    original: bytes,
    *,
    importance: float,
    now: datetime,
    engine: Engine = EXTRACTIVE,
) -> ArchiveRecord:
    """Writes the stub and the lossless full copy of an entry (deletes nothing).

    Args:
        project: the project.
        relpath: the entry's tree path (``domain/topic/x.md``).
        original: the entry's bytes, kept verbatim in the full copy.
        importance: the decayed importance at eviction.
        now: the eviction time.
        engine: the ghost cue's engine (extractive by default).

    Returns:
        The archive record.
    """
    rel = clean_relpath(relpath)
    stub_rel, full_rel = archive_paths(rel)
    text = original.decode("utf-8", "replace")
    info = digest(original, stem=Path(rel).stem, file=rel)
    info = Digest(info.title, info.summary, info.tags, info.keywords, info.updated_at,
                  info.body[:GHOST_INPUT_CHARS], info.broken)
    cue = generate(engine, "ghost_cue", Document(rel, info, text[:GHOST_INPUT_CHARS]),
                   GHOST_CUE_TOKENS).text
    record = ArchiveRecord(
        original_path=rel,
        stub_path=stub_rel,
        full_path=full_rel,
        evicted_at=format_iso(now),
        evicted_importance=round(importance, 1),
        original_token_count=count_tokens(text),
        title=info.title,
    )
    write_atomic(project.tree / full_rel, original)
    write_atomic(project.tree / stub_rel, render_stub(record, cue))
    return record


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
        from brv_vc.summary.archive_recovery import settle_archive

        settle_archive(project, rel, now, may_finish=False)
        raise
    finally:
        conn.close()
        done(intent)
    return record


def finish_restore(project: Project, rel: str, now: datetime) -> None:
    """The rest of a restore once the entry is back: fresh signals, the archive removed."""
    stub_rel, full_rel = archive_paths(rel)
    conn = open_state(project)
    try:
        sidecar.delete(conn, [rel])
        sidecar.record_added(conn, [rel], now.timestamp())
    finally:
        conn.close()
    for archived in (stub_rel, full_rel):
        project.path_of(archived).unlink(missing_ok=True)
        point("restore-unlinked")
    remove_empty_parents(project, (project.tree / full_rel).parent)


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
