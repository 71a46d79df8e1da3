"""Writing index rows for one file: docs, the FTS5 row, its relation links, the fingerprint.

The tree fingerprint is the XOR of a 64-bit hash of (path, content hash) over every indexed
file, so it is updated per file in O(1) and only depends on the tree's content: undoing an
edit gives back the old fingerprint (and the answers cached for it are right again).
"""

from __future__ import annotations

import sqlite3
import unicodedata

from brv_vc.digest import sha1
from brv_vc.index import texts
from brv_vc.index.db import get_meta, set_meta
from brv_vc.index.docs import extract
from brv_vc.pattern import lazy
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


def normalize_target(raw: str) -> str:
    """A relation target as a tree path: no ``@``, no leading ``./`` or ``/``, no trailing ``/``."""
    target = raw.strip().lstrip("@").strip()
    while target.startswith(("./", "/")):
        target = target[1:] if target.startswith("/") else target[2:]
    return target.rstrip("/")


_WORD = lazy(r"[^\W_]+")


def _words(text: str) -> set[str]:
    """Words as FTS5's unicode61 tokenizer sees them (lowercase, diacritics removed)."""
    lowered = text.lower()
    if not lowered.isascii():
        decomposed = unicodedata.normalize("NFKD", lowered)
        lowered = "".join(c for c in decomposed if not unicodedata.combining(c))
    return set(_WORD.findall(lowered))


class Writer:
    """Applies per-file changes inside the caller's transaction."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
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

    def put(
        self, path: str, folder: str, stat: tuple[int, int, int], data: bytes, old: Any | None
    ) -> PutOutcome:
        """Indexes one file's bytes (``old`` is its stored row, or None when new)."""
        digest = sha1(data).hexdigest()
        if old is not None and old.hash == digest:
            self.conn.execute(
                "UPDATE docs SET mtime_ns = ?, size = ?, ctime_ns = ? WHERE id = ?",
                (*stat, old.id),
            )
            return PutOutcome(False, old.problem)
        problem = None
        try:
            doc = extract(path, data)
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
            self._drop_content(path, old.id)
            self.fingerprint ^= old.fp
            self.conn.execute(
                "UPDATE docs SET dir=?, kind=?, mtime_ns=?, size=?, ctime_ns=?, hash=?, fp=?, "
                "title=?, "
                "updated=?, problem=? WHERE id = ?",
                (*values, old.id),
            )
            row_id = old.id
        else:
            cur = self.conn.execute(
                "INSERT INTO docs (path, dir, kind, mtime_ns, size, ctime_ns, hash, fp, title, "
                "updated, problem) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (path, *values),
            )
            row_id = cur.lastrowid
            self.files += 1
        self.fingerprint ^= part
        if doc is not None and kind is Kind.CONTEXT and is_generated(data):
            doc = None  # generated filler keeps its row (the sync needs it) but is never a hit
        if doc is not None and doc.legacy:  # the sidecar keeps a row it already has
            self.seeds[path] = (doc.legacy, doc.updated)
        if doc is not None:
            if self.vocab_current:
                self.new_words.update(_words(f"{doc.title} {doc.content} {path}"))
            self.conn.execute(
                "INSERT INTO fts (rowid, title, content, path, keys) VALUES (?, ?, ?, ?, ?)",
                (row_id, doc.title, doc.content, path, doc.keys),
            )
            texts.store(self.conn, row_id, doc.content, doc.keys)
            self.conn.executemany(
                "INSERT INTO links (source, target, raw) VALUES (?, ?, ?)",
                [(path, t, None if r == t else r)  # raw only when written otherwise
                 for r in doc.relations if (t := normalize_target(r))],
            )
            if doc.code:
                self.conn.executemany(
                    "INSERT INTO codelinks (source, path, how) VALUES (?, ?, ?)",
                    [(path, ref, how) for ref, how in doc.code],
                )
        self.fts_changed = True
        return PutOutcome(True, problem)

    def _drop_content(self, path: str, row_id: int) -> None:
        texts.drop(self.conn, row_id)  # before docs changes: it reads the old title and path
        self.conn.execute("DELETE FROM links WHERE source = ?", (path,))
        self.conn.execute("DELETE FROM codelinks WHERE source = ?", (path,))

    def delete(self, path: str, old: Any) -> None:
        """Removes one file from the index."""
        self._drop_content(path, old.id)
        self.conn.execute("DELETE FROM docs WHERE id = ?", (old.id,))
        self.fingerprint ^= old.fp
        self.files -= 1
        self.fts_changed = True

    def finish(self, full_walk_at: float | None) -> None:
        """Stores the fingerprint, the file count and (after a full walk) its time."""
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
