"""The ``stale`` mark of search and query results: their code changed since they were written.

Ranking is unchanged; a result only says it. On the cold search path this costs one query
of the open index's links table for the result paths and, when a result links code, a read
of the stale set ``services.code_links`` keeps in ``.brv/state`` (checked against HEAD, read
from the git folder's files: no git process, no import of the code-links package). Only when
HEAD moved since that answer is ``code_links.stale_entries`` asked: it judges the tree once
(the history walk itself is cached and read from where it stopped) and keeps the answer for
the next search and ``brv stale``. The mark is as of the last commit: curating between two
commits does not cost each search a new judgement.
"""

from __future__ import annotations

import json
import os
import sqlite3

from brv_vc.index import code_links
from brv_vc.tree.project import git_folder, git_top

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from brv_vc.tree.project import Project

CACHE = "code-links.json"  # services/code_links/staleness.CACHE: {"key": HEAD:fingerprint, ...}


def linked(conn: sqlite3.Connection, paths: Iterable[str]) -> frozenset[str]:
    """The result paths that name repository paths (read while the index is open)."""
    try:
        return code_links.linking(conn, list(dict.fromkeys(paths)))
    except sqlite3.Error:  # an index that predates the links table: no marks
        return frozenset()


def stale_of(project: Project, candidates: frozenset[str]) -> frozenset[str]:
    """Which of the linked results (``linked``'s answer) are stale; never fails a search."""
    return known_stale(project) & candidates if candidates else frozenset()


def known_stale(project: Project) -> frozenset[str]:
    """Every stale entry: the kept answer while HEAD has not moved, else a new judgement."""
    top = git_top(project.root)
    found = None if top is None else git_folder(top)
    if found is None:  # no repository holds the project: no code history to compare
        return frozenset()
    head = _head(str(found))
    try:
        with open(project.state / CACHE, encoding="utf-8") as handle:
            kept = json.load(handle)
        # HEAD alone decides: staleness is judged against commits, and a curate between
        # two commits (the tree's fingerprint moves) would otherwise cost the next search a
        # judgement of the whole tree (~1 s at 25,000 entries); an entry edited since is
        # judged again at the next commit (or 'brv stale')
        if head is not None and str(kept.get("key", "")).partition(":")[0] == head:
            return frozenset(kept["stale"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass
    return every_stale(project)


def every_stale(project: Project) -> frozenset[str]:
    """Every stale entry (``code_links.stale_entries``), or none when it cannot say."""
    try:
        from brv_vc.services.code_links import stale_entries

        return stale_entries(project)
    except Exception:  # a mark is a convenience: a search never fails over it
        return frozenset()


def _head(git_dir: str) -> str | None:
    """The commit HEAD names, read from the git folder's files (None: unsure, ask git)."""
    try:
        with open(os.path.join(git_dir, "HEAD"), encoding="utf-8") as handle:
            head = handle.read().strip()
        if not head.startswith("ref: "):
            return head or None
        ref = head[5:]
        common = git_dir
        if os.path.isfile(os.path.join(git_dir, "commondir")):  # a linked worktree
            with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
                common = os.path.normpath(os.path.join(git_dir, handle.read().strip()))
        for folder in dict.fromkeys((git_dir, common)):
            try:
                with open(os.path.join(folder, ref), encoding="utf-8") as handle:
                    return handle.read().strip() or None
            except (FileNotFoundError, NotADirectoryError):
                continue
        with open(os.path.join(common, "packed-refs"), encoding="utf-8") as handle:
            for line in handle:
                if line.rstrip("\n").endswith(" " + ref):
                    return line.split(" ", 1)[0]
    except OSError:
        return None
    return None
