"""``brv about PATH...``: the entries that describe repository files, with their freshness.

Cold path (an agent asks before it opens a file): the index answers which entries link the
paths; git is asked once per asked path (its commits) and once for the entries' last
commits, never once per entry. Freshness here compares committer times; ``brv stale`` walks
the graph (exact across merges).
"""

from __future__ import annotations

import os
import posixpath
import sqlite3
from collections.abc import Iterable
from typing import NamedTuple

from brv_vc.index.entries import stored_titles, updated_of
from brv_vc.services.code_links import links as linkrows
from brv_vc.services.code_links.concern import concerned, folders, former_names
from brv_vc.services.code_links.model import About, AboutEntry, Commit, Freshness, PathAbout
from brv_vc.services.code_links.where import IN_PROJECT, STANDALONE, CodeRepo, locate
from brv_vc.tree.project import Project
from brv_vc.vc import git


def linked_entries(project: Project, paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """The entries a change to each repository path concerns (:func:`concern.concerned`).

    Args:
        project: the project.
        paths: repository-relative POSIX paths (as ``git diff --name-only`` prints them).

    Returns:
        Each asked path -> the tree-relative paths of the entries concerned, sorted
        (an empty tuple when none do). Reads the index only: no git process.
    """
    from brv_vc.services.derived import with_index

    asked = list(dict.fromkeys(paths))
    code = locate(project, probe=False)
    if code is None or not asked:
        return {path: () for path in asked}

    def work(opened: object) -> dict[str, tuple[str, ...]]:
        return concerned(opened.conn, code.top, code.base,  # type: ignore[attr-defined]
                         project.state, asked)

    return with_index(project, work)[0]


class _Log(NamedTuple):
    time: int
    commit: Commit


def _log(code: CodeRepo, paths: tuple[str, ...], revs: str = "HEAD") -> list[_Log]:
    """The commits of ``revs`` that touched ``paths`` (files or folders), newest first."""
    return [_Log(int(time), Commit(sha, date, subject))
            for sha, time, date, subject in git.touches(code.top, paths, revs)]


def _written(project: Project, code: CodeRepo, entries: list[str], conn: sqlite3.Connection
             ) -> dict[str, _Log | None]:
    """The last commit of each entry (None: uncommitted edits, or never committed)."""
    if not entries:
        return {}
    if code.mode == IN_PROJECT:
        repo, names = code.top, [f"{code.tree_prefix}/{e}" for e in entries]
    elif code.mode == STANDALONE:
        repo, names = project.tree, list(entries)
    else:
        rows = updated_of(conn, entries)
        from datetime import UTC, datetime

        return {p: _Log(int(t), Commit("", datetime.fromtimestamp(t, UTC).isoformat(), "updatedAt"))
                for p, t in rows if t is not None}
    dirty_names = set(git.work_changes(repo, *names))  # -z: names with spaces, accents
    owner = dict(zip(names, entries, strict=True))
    found: dict[str, _Log | None] = {}
    for name, (sha, time, date, subject) in git.last_touches(repo, names).items():
        found[owner[name]] = _Log(int(time), Commit(sha, date, subject))
    for name, entry in owner.items():
        if name in dirty_names:
            found[entry] = None
    return found


EXACT_PAIRS = 30  # in-project: (entry commit, path) pairs asked of git exactly, then by time


def _fresh(code: CodeRepo, written: _Log | None, linked: tuple[str, ...], log: list[_Log],
           exact: dict[tuple[str, tuple[str, ...]], list[_Log]]) -> Freshness:
    if written is None:
        return Freshness(None, 0, None)
    key = (written.commit.sha, linked)
    if code.mode == IN_PROJECT and (key in exact or len(exact) < EXACT_PAIRS):
        if key not in exact:  # the graph, not the clock: commits E..HEAD that touched it
            exact[key] = _log(code, linked, f"{written.commit.sha}..HEAD")
        since = exact[key]
    else:
        since = [c for c in log if c.time > written.time and c.commit.sha != written.commit.sha]
    return Freshness(written.commit, len(since), since[0].commit if since else None)


def about(project: Project, paths: Iterable[str]) -> About:
    """What the tree knows about each path: direct links first, then entries about its folders.

    Args:
        project: the project.
        paths: repository paths, relative to the repository root or absolute (the CLI
            passes absolute ones), files or folders; a path that does not exist is a valid
            question (it may have been deleted), one outside the repository gets a note.

    Returns:
        The entries per path, each with its :class:`Freshness`.

    Raises:
        NotInitializedError: no git repository holds the project.
    """
    from brv_vc.services.code_links.where import require
    from brv_vc.services.derived import with_index

    code = require(project)
    asked = [_asked(code, p) for p in paths]

    former = former_names(project.state, asked)
    shallow = git.is_shallow(code.top)
    # a path the repository never had names no file: "and/or" or "TCP/IP" in prose is no link
    never = {p for p in asked if not p.startswith("../") and p != ".." and not shallow
             and not (code.top / p).exists() and not git.had_path(code.top, p)}

    def work(opened: object) -> tuple[PathAbout, ...]:
        conn = opened.conn  # type: ignore[attr-defined]
        plan: list[tuple[str, bool, list[tuple[str, str, str]], list[tuple[str, str, str]]]] = []
        for path in asked:
            outside = path.startswith("../") or path == ".."
            if outside or path in never:
                plan.append((path, outside, [], []))
                continue
            direct = [(e, how, path) for e, how in linkrows.direct(conn, code, [path])[path]]
            for old in former.get(path, ()):  # entries still naming a former path of the file
                direct += [(e, how, old) for e, how in linkrows.direct(conn, code, [old])[old]]
            is_dir = (code.top / path).is_dir()
            if is_dir:
                direct += [(e, how, p) for e, how, p in linkrows.under(conn, code, path)]
            folder = [(e, "folder", a) for a in folders(path)
                      for e, _ in linkrows.direct(conn, code, [a])[a]]
            plan.append((path, outside, _unique(direct), _unique(folder, direct)))
        entries = sorted({e for _, _, d, f in plan for e, _, _ in [*d, *f]})
        titles = stored_titles(conn, entries)
        written = _written(project, code, entries, conn)
        logs: dict[tuple[str, ...], list[_Log]] = {}
        exact: dict[tuple[str, tuple[str, ...]], list[_Log]] = {}
        out = []
        for path, outside, direct, folder in plan:
            items = []
            for entry, how, linked in [*direct, *folder]:
                # a former name: its commits, and the file's under the name it has now
                track = (linked, path) if linked in former.get(path, ()) else (linked,)
                if track not in logs and (code.mode != IN_PROJECT or len(exact) >= EXACT_PAIRS):
                    logs[track] = _log(code, track)
                fresh = _fresh(code, written.get(entry), track, logs.get(track, []), exact)
                items.append(AboutEntry(entry, titles.get(entry) or entry, how, linked, fresh))
            exists = (code.top / path).exists() and not outside
            note = "outside the repository" if outside else (
                "never in the repository's history" if path in never else
                None if exists else "not in the work tree (deleted or renamed)")
            out.append(PathAbout(path, exists, tuple(items[:len(direct)]),
                                 tuple(items[len(direct):]), note))
        return tuple(out)

    found, notes = with_index(project, work)
    if shallow:
        notes = [*notes, "shallow clone: commit counts cover only the history this clone has"]
    return About(str(code.top), code.mode, found, tuple(notes))


def _asked(code: CodeRepo, path: str) -> str:
    """An asked path as a repository path (absolute ones made relative; ``..`` kept: outside)."""
    if os.path.isabs(path):
        path = os.path.relpath(path, code.top).replace(os.sep, "/")
    return posixpath.normpath(path.replace(os.sep, "/"))


def _unique(rows: list[tuple[str, str, str]], skip: list[tuple[str, str, str]] = ()  # type: ignore[assignment]
            ) -> list[tuple[str, str, str]]:
    seen = {e for e, _, _ in skip}
    out = []
    for row in rows:
        if row[0] not in seen:
            seen.add(row[0])
            out.append(row)
    return out
