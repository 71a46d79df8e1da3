"""Writing index rows for one file: docs, the FTS5 row, its relation links, the fingerprint.

The tree fingerprint is the XOR of a 64-bit hash of (path, content hash) over every indexed
file, so it is updated per file in O(1) and only depends on the tree's content: undoing an
edit gives back the old fingerprint (and the answers cached for it are right again).
"""

from __future__ import annotations

import sqlite3

from brv_vc.digest import sha1
from brv_vc.format.relations import target_path
from brv_vc.index import texts
from brv_vc.index.db import chunks, drop_indexes, get_meta, marks, set_meta
from brv_vc.index.docs import extract
from brv_vc.index.stems import indexed
from brv_vc.record import NamedTuple
from brv_vc.tree.generated import is_generated
from brv_vc.tree.layout import Kind, kind_of

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_MASK = (1 << 64) - 1


class PutOutcome(NamedTuple):
    """What writing one file did."""

    content_changed: bool
    problem: str | None = None


def fingerprint_part(path: str, digest: str) -> int:
    """The 64-bit share of one file in the tree fingerprint."""
    raw = sha1(f"{path}\0{digest}".encode()).digest()[:8]
    return int.from_bytes(raw, "big", signed=True)


def _fts_row(title: str, content: str, path: str, keys: str) -> tuple[str, str, str, str]:
    """An FTS5 row as the table is given it: each column's words stemmed (``index.stems``).

    The same values delete the row again (a contentless table needs them exactly).
    """
    return indexed(title), indexed(content), indexed(path), indexed(keys)


_FTS_DELETE = ("INSERT INTO fts (fts, rowid, title, content, path, keys) "
               "VALUES ('delete', ?, ?, ?, ?, ?)")
_FTS_INSERT = "INSERT INTO fts (rowid, title, content, path, keys) VALUES (?, ?, ?, ?, ?)"
_DOCS_INSERT = ("INSERT INTO docs (id, path, dir, kind, mtime_ns, size, ctime_ns, hash, fp, "
                "title, updated, problem) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
# Files whose rows are written together, one statement per table (each execute from Python
# costs more than SQLite's own work for a small row); bounded so a build holds few texts.
BATCH = 500
_LINK_TABLES = ("link_rows", "codelink_rows")
_SORT_CACHE = -1024  # KiB of page cache while a build makes those tables' indexes


class Writer:
    """Applies per-file changes inside the caller's transaction.

    Rows are staged per file and written a batch at a time (:meth:`flush`, called by
    :meth:`finish`), one statement per table: the old texts of changed and removed files
    are read first (an FTS5 delete gives the values a row was indexed with: the stored text,
    and the title and path the sync read with the file's row), then the FTS5 rows, the old
    texts and links go, ``docs`` is written (new files' rows too: one statement, not one a
    file), then the new texts and links in the order the files came (``codelinks`` keeps a
    Files: list's order).
    """

    def __init__(self, conn: sqlite3.Connection, *, remember: bool = True, expected: int = 0) -> None:
        """Starts a writer for up to ``expected`` puts (a build makes some indexes once, at the end).

        ``expected`` puts of a batch or more into an empty index: see ``_indexes``.
        """
        self.conn = conn
        # False when the sync reads more files than the read-once memo holds (a build)
        self.remember = remember
        self.fingerprint = int(get_meta(conn, "fingerprint") or "0", 16)
        self.files = int(get_meta(conn, "files") or 0)
        self.fts_changed = False
        # Once the fuzzy vocabulary copy exists, new words are added to it file by file
        # (copying all of fts5vocab again costs ~175 ms at 25,000 entries). Words that no
        # longer occur anywhere stay in the copy: a fuzzy alternative that matches nothing.
        self.vocab_current = get_meta(conn, "terms_dirty") == "0"
        self.new_words: set[str] = set()
        # first sight of entries carrying legacy lifecycle keys: path -> (keys, updatedAt)
        self.seeds: dict[str, tuple[tuple[tuple[str, object], ...], float | None]] = {}
        # (path, id, title) whose indexed content goes: an FTS5 delete gives the old values
        self._dropped: list[tuple[str, int, str]] = []
        self._gone: list[tuple[int]] = []  # docs ids removed
        self._stats: list[tuple[int, int, int, int]] = []  # an unchanged file's new stat
        self._updates: list[tuple[Any, ...]] = []  # docs rows rewritten in place
        # new docs rows, written by flush. Each gets the id SQLite would give it (one more
        # than the largest; no AUTOINCREMENT): rows are only removed after the last put
        # (``delete``), and the caller holds the write lock, so the ids are the same.
        self._added: list[tuple[Any, ...]] = []
        self._next_id = int(conn.execute("SELECT max(id) FROM docs").fetchone()[0] or 0) + 1
        # A build (no docs row yet, a batch or more to come): the link tables are empty, and
        # each index made once over its whole table costs less than kept up row by row
        # (~0.45 of 0.9 s at 25,000 entries); the same indexes, made before the commit.
        self._indexes = (drop_indexes(conn, _LINK_TABLES)
                         if self._next_id == 1 and expected >= BATCH else [])
        # (id, its new FTS5 row): applied in id order, a dropped id's old row first, so
        # FTS5 keeps one pending batch (a smaller id than the last one makes it flush)
        self._fts: list[tuple[int, tuple[str, str, str, str] | None]] = []
        self._texts: list[tuple[int, bytes]] = []
        # (docs id, target, raw) and (docs id, code path, how), in the order written
        self._links: list[tuple[int, str, str | None]] = []
        self._code: list[tuple[int, str, str]] = []

    def put(
        self, path: str, folder: str, stat: tuple[int, int, int], data: bytes, old: Any | None
    ) -> PutOutcome:
        """Indexes one file's bytes (``old`` is its stored row, or None when new)."""
        digest = sha1(data).hexdigest()
        if old is not None and old.hash == digest:
            self._stats.append((*stat, old.id))
            return PutOutcome(False, old.problem)
        problem = None
        try:
            doc = extract(path, data, remember=self.remember)
        except Exception as exc:  # fail open: one bad file never blocks the others
            doc = None
            problem = getattr(exc, "message", None) or f"{type(exc).__name__}: {exc}"
        part = fingerprint_part(path, digest)
        kind = kind_of(path)
        values = (
            # an indexed file of no layout kind is a synthesis in a domain folder
            folder, kind.value.replace("other", "synthesis"), *stat, digest, part,
            doc.title if doc else "", doc.updated if doc else None, problem,
        )
        if old is not None:
            self._dropped.append((path, old.id, old.title))
            self.fingerprint ^= old.fp
            self._updates.append((*values, old.id))
            row_id = old.id
        else:
            row_id = self._next_id
            self._next_id += 1
            self._added.append((row_id, path, *values))
            self.files += 1
        self.fingerprint ^= part
        if doc is not None and kind is Kind.CONTEXT and is_generated(data):
            doc = None  # generated filler keeps its row (the sync needs it) but is never a hit
        if doc is not None and doc.legacy:  # the sidecar keeps a row it already has
            self.seeds[path] = (doc.legacy, doc.updated)
        row = None if doc is None else _fts_row(doc.title, doc.content, path, doc.keys)
        self._fts.append((row_id, row))
        if doc is not None:
            if self.vocab_current and row:  # the row's title, content and path, stemmed once
                self.new_words.update(" ".join(row[:3]).split())
            self._texts.append((row_id, texts.pack(doc.content, doc.keys)))
            self._links.extend((row_id, t, None if r == t else r)  # raw only when written otherwise
                               for r in doc.relations if (t := target_path(r)))
            self._code.extend((row_id, ref, how) for ref, how in doc.code)
        self.fts_changed = True
        if len(self._fts) >= BATCH:
            self.flush()
        return PutOutcome(True, problem)

    def delete(self, path: str, old: Any) -> None:
        """Removes one file from the index."""
        self._dropped.append((path, old.id, old.title))
        self._fts.append((old.id, None))
        self._gone.append((old.id,))
        self.fingerprint ^= old.fp
        self.files -= 1
        self.fts_changed = True
        if len(self._fts) >= BATCH:
            self.flush()

    def flush(self) -> None:
        """Writes the staged rows (see the class)."""
        conn = self.conn
        if self._dropped:
            # a file that failed to parse was never put in the FTS5 table: it has no text
            stored = texts.load(conn, [row_id for _, row_id, _ in self._dropped])
            old = {row_id: (title, *stored[row_id], path)
                   for path, row_id, title in self._dropped if row_id in stored}
            for row_id, new in sorted(self._fts, key=lambda op: op[0]):
                if (was := old.get(row_id)) is not None:  # title, content, keys, path
                    conn.execute(_FTS_DELETE, (row_id, *_fts_row(was[0], was[1], was[3], was[2])))
                if new is not None:
                    conn.execute(_FTS_INSERT, (row_id, *new))
            conn.execute("DELETE FROM texts WHERE id IN "
                         f"({','.join(str(row_id) for _, row_id, _ in self._dropped)})")
        else:  # new files only (a build): their ids only grow
            conn.executemany(_FTS_INSERT, [(row_id, *new) for row_id, new in self._fts if new])
        sources = [row_id for _, row_id, _ in self._dropped]
        links = _changed_rows(conn, "link_rows", "target, raw", sources, self._links)
        code = _changed_rows(conn, "codelink_rows", "path, how", sources, self._code)
        conn.executemany(_DOCS_INSERT, self._added)
        conn.executemany("DELETE FROM docs WHERE id = ?", self._gone)
        conn.executemany(
            "UPDATE docs SET mtime_ns = ?, size = ?, ctime_ns = ? WHERE id = ?", self._stats)
        conn.executemany(
            "UPDATE docs SET dir=?, kind=?, mtime_ns=?, size=?, ctime_ns=?, hash=?, fp=?, "
            "title=?, updated=?, problem=? WHERE id = ?", self._updates)
        conn.executemany("INSERT OR REPLACE INTO texts (id, z) VALUES (?, ?)", self._texts)
        conn.executemany("INSERT INTO link_rows (doc, target, raw) VALUES (?, ?, ?)", links)
        conn.executemany("INSERT INTO codelink_rows (doc, path, how) VALUES (?, ?, ?)", code)
        for staged in (self._added, self._dropped, self._gone, self._stats, self._updates,
                       self._fts, self._texts, self._links, self._code):
            staged.clear()

    def finish(self, full_walk_at: float | None) -> None:
        """Writes what is staged, then the fingerprint, the file count and (after a full walk) its time."""
        self.flush()
        if self._indexes:
            # an index's sort holds up to the page cache's size in memory beside the cache:
            # made with half the cache, the build's peak stays where the rows left it
            # (43.1 -> 40.8 MB at 25,000 entries, the time the same)
            size = int(self.conn.execute("PRAGMA cache_size").fetchone()[0])
            self.conn.execute(f"PRAGMA cache_size = {_SORT_CACHE}")
            try:
                for sql in self._indexes:
                    self.conn.execute(sql)
            finally:
                self.conn.execute(f"PRAGMA cache_size = {size}")
        set_meta(self.conn, "fingerprint", format(self.fingerprint & _MASK, "016x"))
        set_meta(self.conn, "files", str(self.files))
        if self.fts_changed and not self.vocab_current:
            set_meta(self.conn, "terms_dirty", "1")
        if self.new_words:
            self.conn.executemany(
                "INSERT OR IGNORE INTO terms (term, len) VALUES (?, ?)",
                [(w, len(w)) for w in self.new_words],
            )
        if full_walk_at is not None:
            set_meta(self.conn, "full_walk_at", repr(full_walk_at))


def _changed_rows(
    conn: sqlite3.Connection, table: str, columns: str, sources: list[int],
    rows: list[tuple[Any, ...]],
) -> list[tuple[Any, ...]]:
    """Deletes the ``table`` rows of ``sources`` (docs ids) that ``rows`` change; returns those to insert.

    A source whose rows are the same, in the same order (most edits leave an entry's
    relations and code paths alone), keeps its rows: no delete, no insert, no page written.
    ``rows`` may hold sources not in ``sources`` (new files): they are inserted.
    """
    old: dict[int, list[tuple[Any, ...]]] = {}
    for chunk in chunks(sources):
        for row in conn.execute(f"SELECT doc, {columns} FROM {table} WHERE doc IN "
                                f"({marks(chunk)}) ORDER BY doc, rowid", chunk):
            old.setdefault(row[0], []).append(row)
    new: dict[int, list[tuple[Any, ...]]] = {}
    for row in rows:
        new.setdefault(row[0], []).append(row)
    same = {source for source in sources if old.get(source, []) == new.get(source, [])}
    conn.executemany(f"DELETE FROM {table} WHERE doc = ?",
                     [(source,) for source in sources if source in old and source not in same])
    return [row for row in rows if row[0] not in same]
