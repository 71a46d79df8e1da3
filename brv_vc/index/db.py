"""Opening ``.brv/state/index.db``: schema, version, and recovery from a broken file.

The file is derived: anything wrong with it (missing, corrupted, an older schema) is fixed by
deleting it and building it again from the tree. The scoring sidecar lives in ``brv.db`` and
is never touched here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from brv_vc.errors import StateError
from brv_vc.record import NamedTuple
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import connect, index_db_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TypeVar

    T = TypeVar("T")

SCHEMA_VERSION = "11"  # 11: Snowball stems given by brv, plain unicode61 (issue 37)
# (10: links and codelinks stored by docs.id (issue 39: size); 8: codelinks (issue 27);
# 9: quoted/escaped paths with spaces link)
# (7: contentless FTS5 + texts, no prefix indexes (issue 24: size); 6: toplists; 4 came twice, stemming + keys and ctime; 5 was both)

# Snowball (Porter2) stemming, done by brv before FTS5 sees the text (``index.stems``; until
# version 11 SQLite's built-in ``porter`` tokenizer): "deploys", "deployed", "deploying" all
# index and query as "deploy", and FTS5's ``unicode61`` only splits the stems. ``keys`` holds
# an entry's tags and keywords (weighted like the title). Version 7:
# the FTS5 table is contentless, the text is kept compressed in ``texts`` (see
# ``index.texts``), and the prefix indexes ('2 3', over half of the inverted index) are gone:
# they only served 2- and 3-character prefixes, and index.db must stay <= 1.5x the markdown
# (DESIGN.md). An older index.db is rebuilt on open (it is derived).
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE docs (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    dir TEXT NOT NULL,
    kind TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL,
    hash TEXT NOT NULL,
    fp INTEGER NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    updated REAL,
    problem TEXT
);
CREATE INDEX docs_dir ON docs(dir);
CREATE TABLE dirs (path TEXT PRIMARY KEY, mtime_ns INTEGER NOT NULL);
-- An entry's relations and code paths are stored under its docs.id (``doc``), not its path
-- again (version 10: the path in every row and its index were 13 of 81 MB at 25,000
-- entries); the views ``links`` and ``codelinks`` give them back by path, in the order
-- written (rowid).
-- raw: the relation as written, NULL when it is the target itself (most are)
CREATE TABLE link_rows (doc INTEGER NOT NULL, target TEXT NOT NULL, raw TEXT);
CREATE INDEX link_rows_doc ON link_rows(doc);
CREATE INDEX link_rows_target ON link_rows(target);
CREATE VIEW links (rowid, source, target, raw) AS
    SELECT l.rowid, d.path, l.target, l.raw FROM link_rows l JOIN docs d ON d.id = l.doc;
-- repository paths an entry names (index.code_refs): how is 'files' (a Files: list) or 'text'
CREATE TABLE codelink_rows (doc INTEGER NOT NULL, path TEXT NOT NULL, how TEXT NOT NULL);
CREATE INDEX codelink_rows_doc ON codelink_rows(doc);
CREATE INDEX codelink_rows_path ON codelink_rows(path);
CREATE VIEW codelinks (rowid, source, path, how) AS
    SELECT c.rowid, d.path, c.path, c.how FROM codelink_rows c JOIN docs d ON d.id = c.doc;
CREATE TABLE dfcache (expr TEXT PRIMARY KEY, df INTEGER NOT NULL, files INTEGER NOT NULL);
CREATE TABLE toplists (expr TEXT PRIMARY KEY, stamp TEXT NOT NULL, rows BLOB NOT NULL);
-- the dream's cross-domain candidates per word (index/dream_hits.py)
CREATE TABLE dreamhits (term TEXT PRIMARY KEY, stamp TEXT NOT NULL, rows BLOB NOT NULL);
CREATE TABLE terms (term TEXT PRIMARY KEY, len INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX terms_len ON terms(len);
CREATE TABLE cache (
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    tokens TEXT NOT NULL,
    answer TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (key, fingerprint)
);
CREATE TABLE texts (id INTEGER PRIMARY KEY, z BLOB NOT NULL);
CREATE VIRTUAL TABLE fts USING fts5(
    title, content, path, keys, tokenize='unicode61 remove_diacritics 2', content=''
);
CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row');
"""


class IndexHandle(NamedTuple):
    """An open index: the connection and what opening it had to repair (for a stderr note)."""

    conn: sqlite3.Connection
    created: bool
    notes: list[str]


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(path) + suffix).unlink(missing_ok=True)


def _try_open(path: Path) -> sqlite3.Connection:
    conn = connect(path)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION:
            raise sqlite3.DatabaseError("index schema version mismatch")
        conn.execute("SELECT count(*) FROM fts WHERE rowid = 0").fetchone()
    except BaseException:
        conn.close()
        raise
    return conn


def _create(path: Path) -> sqlite3.Connection:
    conn = connect(path)
    conn.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
    conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (SCHEMA_VERSION,))
    return conn


def open_index(project: Project, *, rebuild: bool = False) -> IndexHandle:
    """Opens ``index.db``, creating it (or replacing a broken one) when needed.

    Args:
        project: the project.
        rebuild: drop the file first (``brv index --rebuild``).

    Returns:
        The handle; ``created`` tells the caller to run a full sync.

    Raises:
        StateError: a folder stands where the database should be (deleting a file cannot
            repair that).
    """
    path = index_db_path(project)
    notes: list[str] = []
    if path.is_dir():
        # Not damage brv can repair by deleting a file: something else stands in its place.
        raise StateError(
            f"the search index path {path.name} is a folder, not a database",
            file=".brv/state/index.db",
            hint="remove that folder (the index is derived), then run 'brv index'",
        )
    if rebuild:
        _remove(path)
    elif path.exists():
        try:
            return IndexHandle(_try_open(path), False, notes)
        except sqlite3.DatabaseError as exc:
            notes.append(f"the search index {path.name} was unreadable ({exc}); rebuilt it")
            _remove(path)
    # A missing index is the normal state of a new project or a fresh clone (it is derived
    # and never synced): it is built without a warning.
    return IndexHandle(_create(path), True, notes)


def open_read_only(project: Project) -> sqlite3.Connection | None:
    """``index.db`` opened to read only, as it is: no sync, no repair, nothing created.

    For a reader that must see the index as the last brv command left it (the post-merge
    hook, before its own refresh). None when there is no index or it cannot be opened.
    """
    path = index_db_path(project)
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=10.0)
    except sqlite3.Error:
        return None
    return conn


def get_meta(conn: sqlite3.Connection, key: str) -> str | None:
    """Returns a meta value or None."""
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else str(row[0])


def set_meta(conn: sqlite3.Connection, key: str, value: str) -> None:
    """Stores a meta value (inside the caller's transaction, if any)."""
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


def drop_indexes(conn: sqlite3.Connection, tables: tuple[str, ...]) -> list[str]:
    """Drops the indexes of ``tables`` (in the caller's transaction); returns the SQL that makes them again.

    For a build into empty tables: one ``CREATE INDEX`` over a whole table at the end costs
    less than keeping the index up row by row, and gives the same index. The SQL is the
    schema's own, as ``sqlite_master`` keeps it (a table's implicit UNIQUE index has none).
    """
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS "
                        f"NOT NULL AND tbl_name IN ({marks(list(tables))})", tables).fetchall()
    for name, _ in rows:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in rows]


# paths per IN (...): SQLite's bound on host parameters is 32766; small keeps plans simple
CHUNK = 500


def chunks(items: list[T]) -> Iterator[list[T]]:
    """``items`` in slices of :data:`CHUNK`, each small enough for one query's parameters."""
    for start in range(0, len(items), CHUNK):
        yield items[start : start + CHUNK]


def marks(items: list[T]) -> str:
    """The ``?`` placeholders of an ``IN (...)`` over ``items``."""
    return ",".join("?" * len(items))
