"""The files of an archived entry: its stub and its full copy, written and removed.

``_archived/<path minus .md>.full.md`` holds the original bytes, verbatim; ``.stub.md``
holds seed 000's frontmatter and a ~220-token ghost cue that stays searchable and says how to
restore. Archiving (``summary/archive.py``) and finishing or undoing an archive or restore
cut short (``summary/archive_recovery.py``) both write them through this module.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from brv_vc.clock import format_iso
from brv_vc.format.frontmatter import quote
from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import sidecar
from brv_vc.summary.budgets import GHOST_CUE_TOKENS, GHOST_INPUT_CHARS
from brv_vc.summary.digest import Digest, digest
from brv_vc.summary.documents import Document
from brv_vc.summary.engine import EXTRACTIVE, Engine, generate
from brv_vc.tree.fault import point
from brv_vc.tree.layout import archive_paths, clean_relpath
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state
from brv_vc.tree.store import remove_empty_parents, write_atomic


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
