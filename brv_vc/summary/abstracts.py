"""``<entry>.abstract.md`` (~80 tokens) and ``<entry>.overview.md`` (~1,500 tokens).

One queue item at a time (seed 000): read the entry, parse it strictly, condense the first
20,000 characters, write both siblings atomically. A transient failure (a provider timeout
or 5xx, a database or disk hiccup) is retried after 500 ms, 1 s, 2 s (the sleep is
injectable), then the item is marked failed and the queue goes on. A permanent failure (the
entry does not parse, the path is invalid or unreadable) fails at once: another try would
read the same bytes. Entries are written atomically (``write_atomic``), so a half-written
file is not a reason to wait.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from brv_vc.errors import BrvError, ProviderError
from brv_vc.format.entry import decode
from brv_vc.record import NamedTuple
from brv_vc.summary import queue
from brv_vc.summary.budgets import ABSTRACT_TOKENS, INPUT_CHARS, OVERVIEW_TOKENS, Deferred
from brv_vc.summary.digest import strict_digest
from brv_vc.summary.documents import Document
from brv_vc.summary.engine import Engine, generate
from brv_vc.summary.records import Records, sha
from brv_vc.tree.layout import ABSTRACT_SUFFIX, OVERVIEW_SUFFIX
from brv_vc.tree.project import Project
from brv_vc.tree.store import read_bytes, write_atomic

BACKOFF = (0.5, 1.0, 2.0)  # seconds before retry 1, 2, 3 (seed 000)


class DrainReport(NamedTuple):
    """What a drain did: paths done, (path, error) failures, rows still waiting."""

    done: tuple[str, ...] = ()
    failed: tuple[tuple[str, str], ...] = ()
    remaining: int = 0
    levels: tuple[tuple[str, str], ...] = ()
    deferred: Deferred | None = None  # why the drain left work queued for `brv summarize`


# OS errors that waiting does not fix: the path is wrong or unreadable, not busy
_PERMANENT_OS = (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError)


def is_permanent(exc: Exception) -> bool:
    """Whether retrying ``exc`` is pointless (bad input), as opposed to a transient failure.

    Permanent: every ``BrvError`` but a provider failure (a format error, an invalid path),
    undecodable text, a missing, misplaced or unreadable file. Transient: provider errors
    (timeouts, 5xx, rate limits) and other OS or database errors.
    """
    if isinstance(exc, ProviderError):
        return False
    return isinstance(exc, (BrvError, UnicodeError, *_PERMANENT_OS))


def siblings(relpath: str) -> tuple[str, str]:
    """The abstract and overview paths of an entry."""
    stem = relpath[:-3] if relpath.endswith(".md") else relpath
    return stem + ABSTRACT_SUFFIX, stem + OVERVIEW_SUFFIX


def entry_of(sibling: str) -> str:
    """The entry of an abstract or overview (``a/b/x.abstract.md`` -> ``a/b/x.md``)."""
    for suffix in (ABSTRACT_SUFFIX, OVERVIEW_SUFFIX):
        if sibling.endswith(suffix):
            return sibling[: -len(suffix)] + ".md"
    return sibling


def document(relpath: str, data: bytes) -> Document:
    """Parses an entry strictly into an engine input (raises FormatError when broken)."""
    text = decode(data, file=relpath)
    info = strict_digest(text, file=relpath, stem=Path(relpath).stem)
    return Document(relpath, info._replace(body=info.body[:INPUT_CHARS]), text[:INPUT_CHARS])


def process(
    project: Project, relpath: str, engine: Engine, records: Records | None = None
) -> tuple[str | None, str]:
    """Writes (or, for a deleted entry, removes) the two siblings of one entry.

    ``records`` remembers the bytes written, so a later hand edit is noticed
    (:func:`hand_edited`).

    Returns:
        (content hash of the entry or None when it is gone, worst escalation level).

    Raises:
        FormatError: the entry does not parse.
        OSError: the file cannot be read or written.
    """
    abstract_rel, overview_rel = siblings(relpath)
    try:
        data = read_bytes(project, relpath)
    except FileNotFoundError:
        for rel in (abstract_rel, overview_rel):
            (project.tree / rel).unlink(missing_ok=True)
        return None, ""
    doc = document(relpath, data)
    short = generate(engine, "abstract", doc, ABSTRACT_TOKENS)
    long = generate(engine, "overview", doc, OVERVIEW_TOKENS)
    content_hash = sha(data)
    for rel, text in ((abstract_rel, " ".join(short.text.split()) + "\n"),
                      (overview_rel, long.text.rstrip("\n") + "\n")):
        written = text.encode()
        if records is None:
            write_atomic(project.tree / rel, written, durable=False)
        else:
            records.write(project.tree / rel, rel, content_hash, written)
    worst = max(short.level, long.level, key=("normal", "aggressive", "truncated").index)
    return content_hash, worst


def drain(
    project: Project,
    conn: sqlite3.Connection,
    engine: Engine,
    *,
    budget_seconds: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
    progress: Callable[[str], None] | None = None,
    only: Iterable[str] | None = None,
) -> DrainReport:
    """Works through the queue one file at a time until it is empty (or the budget is spent).

    Args:
        project: the project.
        conn: ``brv.db``.
        engine: the engine writing the texts.
        budget_seconds: stop claiming new work after this long (None: drain everything).
            A retry that would overrun the budget gives its claim back instead of sleeping.
        sleep: the backoff sleep (tests pass a recorder).
        clock: a monotonic clock for the budget.
        progress: called with each path as it finishes.
        only: work on these queued paths alone (None: the whole queue).

    Returns:
        The report; failures are reported, never raised.
    """
    deadline = None if budget_seconds is None else clock() + budget_seconds
    queue.ensure_schema(conn)
    records = Records(conn)
    done: list[str] = []
    failed: list[tuple[str, str]] = []
    levels: list[tuple[str, str]] = []
    stopped = False
    deferred: Deferred | None = None
    among = None if only is None else list(only)
    if among is not None and len(among) > 30000:  # past SQLite's parameter limit
        among = None
    while not stopped and (deadline is None or clock() < deadline):
        item = queue.claim(conn, only=among)
        if item is None:
            break
        for attempt in range(len(BACKOFF) + 1):
            try:
                content_hash, level = process(project, item.path, engine, records)
            except Deferred as why:  # the provider call does not fit (or failed): give it back
                queue.release(conn, item)
                deferred, stopped = why, True
                break
            except Exception as exc:  # fail open: one bad file never stops the queue
                message = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
                if attempt == len(BACKOFF) or is_permanent(exc):
                    queue.fail(conn, item, message, attempt + 1, _hash_of(project, item.path))
                    failed.append((item.path, message))
                    break
                delay = BACKOFF[attempt]
                if deadline is not None and clock() + delay > deadline:
                    queue.release(conn, item)
                    stopped = True
                    break
                sleep(delay)
                continue
            queue.finish(conn, item, content_hash)
            done.append(item.path)
            if level and level != "normal":
                levels.append((item.path, level))
            break
        if progress is not None:
            progress(item.path)
    waiting = queue.counts(conn)
    remaining = waiting.get(queue.PENDING, 0) + waiting.get(queue.CLAIMED, 0)
    return DrainReport(tuple(done), tuple(failed), remaining, tuple(levels), deferred)


def _hash_of(project: Project, relpath: str) -> str | None:
    try:
        return sha((project.tree / relpath).read_bytes())
    except OSError:
        return None


def stale_entries(
    conn: sqlite3.Connection, tree: Path, entries: Iterable[str]
) -> list[str]:
    """Entries whose siblings are missing or were made from other content.

    An entry that already failed with exactly its current bytes is not stale: the same
    bytes would fail the same way. It is still
    reported (:func:`brv_vc.summary.queue.failures`) until it changes.
    """
    made = queue.settled_hashes(conn)
    failed = {path for path, _ in queue.failures(conn)}
    stale = []
    for rel in entries:
        abstract_rel, overview_rel = siblings(rel)
        if made.get(rel) is None or (rel not in failed and not (
            (tree / abstract_rel).exists() and (tree / overview_rel).exists()
        )):
            stale.append(rel)
            continue
        try:
            if sha((tree / rel).read_bytes()) != made[rel]:
                stale.append(rel)
        except OSError:
            stale.append(rel)
    return stale


def adopt_foreign(
    conn: sqlite3.Connection, tree: Path, entries: Iterable[str], records: Records
) -> list[str]:
    """Keeps abstracts and overviews another tool wrote (a ByteRover provider) as current.

    Trigger: an entry brv never summarized (no queue row) whose two siblings exist and were
    not written by brv (no record). Why: they were written for this entry, usually by an
    LLM, and are richer than the extractive text brv would put in their place. Outcome: the
    entry counts as summarized for its current bytes, so its siblings are rewritten only
    when the entry changes; from now on they are checked for hand edits like brv's own.

    Returns:
        The entries whose siblings were adopted.
    """
    made = queue.settled_hashes(conn)
    settled: dict[str, str] = {}
    for rel in entries:
        if rel in made:
            continue
        pair = siblings(rel)
        try:
            data = [(tree / sibling).read_bytes() for sibling in pair]
            digest = sha((tree / rel).read_bytes())
        except OSError:
            continue
        if any(records.get(sibling) is not None for sibling in pair):
            continue
        for sibling, written in zip(pair, data, strict=True):
            records.put(sibling, digest, written)
        settled[rel] = digest
    conn.commit()
    queue.settle(conn, settled)
    return sorted(settled)


def hand_edited(tree: Path, entries: Iterable[str], records: Records) -> list[str]:
    """Siblings (abstract or overview) whose bytes differ from what brv last wrote.

    Derived files are overwritten: each one found here is regenerated, with a warning. A
    sibling with no record (a new machine, a deleted state folder) is not an edit.
    """
    edited = []
    records.load_all()
    for rel in entries:
        for sibling in siblings(rel):
            try:
                if records.edited(sibling, tree / sibling, (tree / sibling).read_bytes()):
                    edited.append(sibling)
            except OSError:
                continue
    return edited
