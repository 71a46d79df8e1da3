"""Which entry is which row of the semantic lane's matrix file, kept per tree fingerprint.

A search with the lane needs, for every entry, its row in the model's matrix (``vectors.py``
keeps rows by content hash). Working that out reads every entry of ``index.db`` and matches
every hash: at 100,000 entries about 1.5 s of CPU, most of the lane's cold cost. So the
answer is kept beside the matrix file (``vector-rows-<model digest>.npz``: each entry's docs
id and row, 16 bytes an entry), with the tree fingerprint and the ``vectors.db`` version it
was worked out at. While both stand, a cold search reads that file, maps the matrix
(``vectors.mapped``) and reads the path and title of its best entries only
(:func:`described`), checking each one's content hash against its row's: a rebuilt index
(other ids, the same fingerprint) is caught there and the caller works the answer out anew.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from brv_vc.index.db import chunks, marks
from brv_vc.index.vectors import digest, write_npz


def _file(state: Path, model: str) -> Path:
    return state / f"vector-rows-{digest(model)}.npz"


def kept_rows(state: Path, model: str, tree: str, at: int) -> tuple[Any, Any] | None:
    """(docs ids, matrix rows) kept for this tree fingerprint and ``vectors.db`` version."""
    import zipfile

    import numpy as np

    try:
        with np.load(_file(state, model), allow_pickle=False) as kept:
            if (str(kept["tree"]) != tree or int(kept["version"]) != at
                    or str(kept["model"]) != model):
                return None
            ids, rows = kept["ids"], kept["rows"]
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if ids.shape != rows.shape or ids.ndim != 1:
        return None
    return ids, rows


def keep_rows(state: Path, model: str, tree: str, at: int, ids: Any, rows: Any) -> None:
    """Keeps the entries' docs ids and matrix rows for the next process (see the module)."""
    import numpy as np

    write_npz(_file(state, model), tree=np.str_(tree), version=np.int64(at),
              model=np.str_(model), ids=ids, rows=rows)


def described(index: sqlite3.Connection, ids: list[int]) -> dict[int, tuple[str, str, str]]:
    """(path, title, content hash) of the searchable entries among docs ``ids``."""
    found: dict[int, tuple[str, str, str]] = {}
    for part in chunks(ids):
        for i, path, title, content in index.execute(
                f"SELECT id, path, title, hash FROM docs WHERE id IN ({marks(part)}) "
                "AND kind = 'entry' AND problem IS NULL", part):
            found[int(i)] = (str(path), str(title), str(content))
    return found
