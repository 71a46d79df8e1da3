"""Which entries a changed repository path concerns: one rule for about, vc diff, hooks.

A change to ``src/x/f.py`` concerns the entries that name it, the entries that still name
one of its former paths (git's renames, read from the walk ``brv stale`` caches: no git
process here), and the entries whose ``Files:`` list names a folder around it. Work grows
with the changed paths, never with the tree: one query of the links table per 500 names.
"""

from __future__ import annotations

import marshal
import sqlite3
from collections.abc import Iterable
from pathlib import Path

from brv_vc.index import code_links
from brv_vc.index.code_refs import FILES

RENAMES = "code-renames.bin"  # .brv/state: new path -> former path, cached by brv stale


def folders(path: str) -> list[str]:
    """The folders around ``path``, nearest first (``src/x/f.py`` -> ``src/x``, ``src``)."""
    parts = path.split("/")
    return ["/".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]


def former_names(state: Path, paths: Iterable[str]) -> dict[str, list[str]]:
    """Each path's former names, newest first, from the renames ``brv stale`` cached.

    Without the cache (``brv stale`` never ran here) no former names are known: a renamed
    file's older entries are then found by ``brv stale``, which reports them as renamed.
    """
    try:
        into = marshal.loads((state / RENAMES).read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(into, dict):
        return {}
    out: dict[str, list[str]] = {}
    for path in paths:
        seen, name = [], path
        while name in into and into[name] not in seen and into[name] != path:
            name = into[name]
            seen.append(name)
        if seen:
            out[path] = seen
    return out


def forms(top: Path, base: str, path: str) -> list[str]:
    """The ways an entry may name a repository path (what the index is asked for).

    From the repository root, absolute, or from the project root when the project sits in a
    folder (``base``) of the repository.
    """
    found = [path, str(top / path)]
    if base and path.startswith(base + "/"):
        found.append(path[len(base) + 1:])
    return found


def concerned(conn: sqlite3.Connection, top: Path, base: str, state: Path,
              paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each changed repository path -> the entries it concerns, sorted.

    Args:
        conn: the index (its ``codelinks`` and ``docs`` tables).
        top: the code repository's work tree top.
        base: the project root relative to ``top`` ('' when the same).
        state: the project's state folder (the cached renames).
        paths: repository-relative POSIX paths, as git prints them.
    """
    asked = list(dict.fromkeys(paths))
    former = former_names(state, asked)
    named: dict[str, set[str]] = {}  # a form as an entry names it -> the asked paths
    listed: dict[str, set[str]] = {}  # a folder's form -> the asked paths (Files: only)
    for path in asked:
        for name in (path, *former.get(path, ())):
            for form in forms(top, base, name):
                named.setdefault(form, set()).add(path)
        for folder in folders(path):
            for form in forms(top, base, folder):
                listed.setdefault(form, set()).add(path)
    found: dict[str, set[str]] = {path: set() for path in asked}
    for form, entry, how in code_links.naming(conn, list({*named, *listed})):
        for path in named.get(form, ()):
            found[path].add(entry)
        if how == FILES:
            for path in listed.get(form, ()):
                found[path].add(entry)
    return {path: tuple(sorted(found[path])) for path in asked}
