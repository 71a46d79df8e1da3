"""The semantic lane's vectors: a sidecar SQLite file beside the index (``.brv/state/vectors.db``).

Derived and per machine like ``index.db`` (never in the tree, never synced), but kept in
its own file: embedding a large tree is slow, so ``brv index --rebuild`` must not lose the
vectors, and a tree without the lane never opens it. Rows are keyed by the entry's content
hash and the model, so an edit needs one new vector, an unchanged entry moved elsewhere
needs none, and a model change re-embeds lazily (the old model's rows are only read by it).
Vectors are float32 blobs, unit length (cosine is a dot product).

A search reads them as one matrix: ``vectors-<model digest>.npz`` beside ``vectors.db``
holds every vector of one model in one float32 block, with the content hash of each row and
the version of ``vectors.db`` it was written at (:func:`matrix`). While that version is
current the search maps the one file (no row of ``vectors.db``: 25,000 blobs read, checked
and joined cost about 0.25 s of CPU; :func:`mapped`: no copy of it either); after any write the next search reads the rows again
and writes the file anew (``os.replace``: a reader sees the old file or the new one; the
temp file is written in ``.brv/state/tmp``, swept if the writer is killed).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Any

TYPE_CHECKING = False
if TYPE_CHECKING:
    import zipfile
    from typing import BinaryIO

FILE = "vectors.db"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    hash TEXT NOT NULL,
    model TEXT NOT NULL,
    dim INTEGER NOT NULL,
    v BLOB NOT NULL,
    PRIMARY KEY (hash, model)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
# A rowid table, not WITHOUT ROWID: a vector (1 KB at 256 dimensions) is past the ~1,000
# bytes an index b-tree keeps in its page, so every row spilled into an overflow page of
# its own (117 MB at 25,000 entries, 4.7 KB a row); a table b-tree keeps it in the page.


def open_vectors(state: Path) -> sqlite3.Connection:
    """Opens (creating) ``vectors.db`` in the state folder ``state``."""
    from brv_vc.tree.statedb import connect

    conn = connect(state / FILE)
    conn.executescript(_SCHEMA)
    return conn


def entries(index: sqlite3.Connection, scope: str | None = None) -> list[tuple[int, str, str, str]]:
    """(rowid, path, content hash, title) of every searchable entry, under ``scope`` if given."""
    sql = "SELECT id, path, hash, title FROM docs WHERE kind = 'entry' AND problem IS NULL"
    args: list[object] = []
    if scope:
        sql += " AND (path = ? OR substr(path, 1, ?) = ?)"
        args = [scope, len(scope) + 1, scope.rstrip("/") + "/"]
    return [(int(i), str(p), str(h), str(t)) for i, p, h, t in index.execute(sql + " ORDER BY id", args)]


def hashes(conn: sqlite3.Connection, model: str) -> set[str]:
    """The content hashes that have a vector for ``model``."""
    return {str(h) for (h,) in conn.execute("SELECT hash FROM vectors WHERE model = ?", (model,))}


def version(conn: sqlite3.Connection) -> int:
    """A counter every write raises: a process that kept what it read knows when to read again."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'version'").fetchone()
    return int(row[0]) if row else 0


def _bump(conn: sqlite3.Connection) -> None:
    conn.execute("INSERT INTO meta (key, value) VALUES ('version', 1) "
                 "ON CONFLICT(key) DO UPDATE SET value = value + 1")


def put(conn: sqlite3.Connection, model: str, rows: list[tuple[str, int, bytes]]) -> None:
    """Keeps (hash, dim, blob) rows for ``model`` (one transaction)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.executemany("INSERT OR REPLACE INTO vectors (hash, model, dim, v) VALUES (?, ?, ?, ?)",
                         [(h, model, d, v) for h, d, v in rows])
        _bump(conn)
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def prune(conn: sqlite3.Connection, model: str, keep: set[str]) -> int:
    """Drops ``model``'s vectors of contents no entry holds any more; returns how many."""
    gone = [h for (h,) in conn.execute("SELECT hash FROM vectors WHERE model = ?", (model,))
            if h not in keep]
    conn.execute("BEGIN IMMEDIATE")
    conn.executemany("DELETE FROM vectors WHERE hash = ? AND model = ?", [(h, model) for h in gone])
    _bump(conn)
    conn.execute("COMMIT")
    return len(gone)


def digest(model: str) -> str:
    """The part of a model's file names that names the model."""
    return hashlib.sha1(model.encode()).hexdigest()[:16]


def _matrix_file(state: Path, model: str) -> Path:
    return state / f"vectors-{digest(model)}.npz"


def _read_rows(conn: sqlite3.Connection, model: str) -> tuple[list[str], Any]:
    """``model``'s hashes and matrix, read from the rows.

    One size: an endpoint that changed its model's size under one name keeps the size most
    rows have.
    """
    import numpy as np

    sizes = conn.execute("SELECT dim, count(*) FROM vectors WHERE model = ? GROUP BY dim "
                         "ORDER BY count(*) DESC, dim LIMIT 1", (model,)).fetchone()
    if sizes is None:
        return [], np.zeros((0, 0), dtype=np.float32)
    hashes, blobs = [], []
    for h, v in conn.execute("SELECT hash, v FROM vectors WHERE model = ? AND dim = ? "
                             "ORDER BY hash", (model, sizes[0])):
        hashes.append(str(h))
        blobs.append(v)
    return hashes, np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(hashes), -1)


def matrix(state: Path, conn: sqlite3.Connection, model: str) -> tuple[int, list[str], Any]:
    """(the version read at, the hashes, their float32 matrix, one row each) of ``model``.

    From the matrix file when it was written at the current version, else from the rows of
    ``vectors.db``, written to the matrix file for the next search (a file that cannot be
    read or written is only a slower search).
    """
    import numpy as np

    at = version(conn)
    path = _matrix_file(state, model)
    kept = mapped(state, model, at)
    if kept is not None:
        return at, kept[1].tolist(), kept[0]
    hashes, rows = _read_rows(conn, model)
    if at == version(conn):  # no write since: the file is of this version
        write_npz(path, version=np.int64(at), model=np.str_(model),
                  hashes=np.asarray(hashes, dtype=str), matrix=rows)
    return at, hashes, rows


def mapped(state: Path, model: str, at: int) -> tuple[Any, Any] | None:
    """(matrix, hashes) of ``model``'s matrix file written at version ``at``, mapped, not read.

    None: no such file, another version, or a damaged one. Mapped (``numpy.memmap``), a
    search reads only the pages it touches and copies nothing (reading the whole file was
    0.6 s of CPU at 100,000 entries); a writer replaces the file, never changes it in place.
    The file is opened once: its version and model are read, and both arrays mapped, through
    one handle.
    """
    import zipfile

    import numpy as np

    try:
        with _matrix_file(state, model).open("rb") as handle, \
                zipfile.ZipFile(handle) as archive:
            if int(_small(archive, "version")) != at or str(_small(archive, "model")) != model:
                return None
            rows, hashes = member(handle, archive, "matrix"), member(handle, archive, "hashes")
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if rows.dtype != np.float32 or rows.ndim != 2 or rows.shape[0] != hashes.shape[0]:
        return None
    return rows, hashes


def _small(archive: zipfile.ZipFile, name: str) -> Any:
    """The array ``name`` of an ``.npz`` archive, read (a scalar: the version, the model)."""
    import numpy as np

    with archive.open(f"{name}.npy") as data:
        return np.lib.format.read_array(data, allow_pickle=False)


def member(handle: BinaryIO, archive: zipfile.ZipFile, name: str) -> Any:
    """The array ``name`` of the uncompressed ``.npz`` file open as ``handle``, mapped.

    ``numpy.savez`` stores each array as a ``.npy`` member, uncompressed: its bytes lie at a
    fixed place in the file (after the member's zip header and the ``.npy`` header), which
    ``numpy.memmap`` maps through the same handle (``archive``: the file read as a zip).

    Raises:
        ValueError, KeyError, OSError: not such a file, or no such member.
    """
    import zipfile

    import numpy as np

    info = archive.getinfo(f"{name}.npy")
    if info.compress_type != zipfile.ZIP_STORED:
        raise ValueError(f"{name} is compressed")
    handle.seek(info.header_offset)
    local = handle.read(30)
    if local[:4] != b"PK\x03\x04":
        raise ValueError(f"{name}: no zip header")
    handle.seek(info.header_offset + 30 + int.from_bytes(local[26:28], "little")
                + int.from_bytes(local[28:30], "little"))
    major, _ = np.lib.format.read_magic(handle)
    header = (np.lib.format.read_array_header_1_0 if major == 1
              else np.lib.format.read_array_header_2_0)
    shape, fortran, dtype = header(handle)
    offset = handle.tell()
    if dtype.hasobject:
        raise ValueError(f"{name} holds objects")
    if 0 in shape or not shape:
        return np.zeros(shape, dtype=dtype)
    return np.memmap(handle, dtype=dtype, mode="r", offset=offset, shape=shape,
                     order="F" if fortran else "C")


def write_npz(path: Path, **arrays: Any) -> None:
    """Writes an ``.npz`` file of the state folder through a temp file in ``.brv/state/tmp``.

    There the temp file of a process killed while writing (118 MB at 100,000 entries) is
    named for its pid and the next command sweeps it (tree/intents.sweep_temps, which also
    sweeps the temp files written beside the matrix file before: ``vectors-*.npz.<pid>.tmp``).
    """
    import numpy as np

    from brv_vc.tree.fault import point
    from brv_vc.tree.leftovers import TMP_DIR
    from brv_vc.tree.store import temp_name

    temporary = path.parent / TMP_DIR / temp_name()
    try:
        temporary.parent.mkdir(exist_ok=True)
        with temporary.open("wb") as out:
            np.savez(out, **arrays)
        point("vectors-written")  # written, not yet in place
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
