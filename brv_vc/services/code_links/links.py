"""The links the index keeps (``codelinks``), resolved against the code repository."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import NamedTuple

from brv_vc.index import code_links
from brv_vc.index.code_refs import FILES
from brv_vc.services.code_links.where import CodeRepo


class Link(NamedTuple):
    """An entry names a repository path."""

    entry: str
    path: str  # repository path
    how: str  # "files" or "text"
    named: str  # as the entry wrote it


class Resolved(NamedTuple):
    """Every link of the tree, and the ``Files:`` paths that lie outside the repository."""

    links: list[Link]
    outside: list[tuple[str, str]]  # (entry, path as named)


def resolve_all(conn: sqlite3.Connection, code: CodeRepo, known: Collection[str],
                only: Callable[[str], bool] | None = None) -> Resolved:
    """Resolves every stored candidate; text candidates link only to paths in ``known``.

    ``Files:`` paths link even when the repository does not have them (any more): the history
    tells what happened to them. A path inside the project's ``.brv/`` is knowledge, not code.
    ``only``: keep the links of the entries with at least one link to a path it accepts
    (prune asks for deleted paths: at 100,000 entries every link held cost ~130 MB).
    """
    wanted: set[str] | None = None
    if only is not None:
        wanted = {entry for entry, path, _, _ in _each(conn, code, known)
                  if path is not None and only(path)}
        if not wanted:
            return Resolved([], [])
    links: list[Link] = []
    outside: list[tuple[str, str]] = []
    for entry, path, how, named in _each(conn, code, known, wanted):
        if path is None:
            outside.append((entry, named))
        else:
            links.append(Link(entry, path, how, named))
    return Resolved(links, outside)


def _each(conn: sqlite3.Connection, code: CodeRepo, known: Collection[str],
          wanted: Collection[str] | None = None) -> Iterator[tuple[str, str | None, str, str]]:
    """(entry, repository path, how, as named) of each link (of the ``wanted`` entries).

    The path is None for a ``Files:`` path outside the repository.
    """
    plain = not code.base
    brv = f"{code.base}/.brv" if code.base else ".brv"
    for entry, named, how in code_links.every(conn):
        if wanted is not None and entry not in wanted:
            continue  # skipped before any path work
        # most paths are stored normalised and relative: they name themselves
        path = (named if plain and named[:1] != "/" and named[:2] != ".."
                else code.to_repo(named))
        if code.base and (path is None or path not in known) and named in known:
            path = named  # a project in a monorepo's folder may name paths from its root
        if path is None:
            if how == FILES:
                yield entry, None, how, named
            continue
        if (how != FILES and path not in known) or path == brv or path.startswith(brv + "/"):
            continue
        yield entry, path, how, named


def variants(code: CodeRepo, path: str) -> list[str]:
    """The ways an entry may name a repository path (what the index is asked for)."""
    from brv_vc.services.code_links.concern import forms

    return forms(code.top, code.base, path)


def direct(conn: sqlite3.Connection, code: CodeRepo, paths: Iterable[str]
           ) -> dict[str, list[tuple[str, str]]]:
    """Each repository path -> ``(entry, how)`` of the entries naming it (index only)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for path in paths:
        rows = code_links.entries_naming(conn, variants(code, path))
        seen: dict[str, str] = {}
        for entry, how in rows:
            if seen.get(entry) != FILES:
                seen[entry] = how
        out[path] = sorted(seen.items(), key=lambda item: (item[1] != FILES, item[0]))
    return out


def under(conn: sqlite3.Connection, code: CodeRepo, folder: str) -> list[tuple[str, str, str]]:
    """``(entry, how, named path)`` of the entries naming a path inside ``folder``."""
    found = []
    for form in variants(code, folder):
        low = form.rstrip("/") + "/"
        found.extend(code_links.entries_under(conn, low))
    return found
