"""The results of the code-links services: immutable records, never printed here.

NamedTuples, not dataclasses: ``brv about`` is asked on a cold path (an agent about to open
a file), and creating dataclasses costs a compile per generated method on every start.
"""

from __future__ import annotations

from typing import NamedTuple


class Commit(NamedTuple):
    """One commit of the code repository, as a person reads it in a log line."""

    sha: str
    date: str  # ISO 8601 (committer date, UTC offset as git wrote it)
    subject: str


class Freshness(NamedTuple):
    """How an entry's knowledge relates to one file's history.

    ``written`` is the commit that last touched the entry file (None when the entry is not
    committed yet); ``changes_since`` counts the commits that touched the file after it.
    ``missing_history`` is set when a shallow clone cannot answer (the count is then a
    lower bound and the text says so).
    """

    written: Commit | None
    changes_since: int
    last: Commit | None
    missing_history: str | None = None


class AboutEntry(NamedTuple):
    """An entry that describes a path: directly (its ``Files:`` or its text) or its folder."""

    entry: str  # tree-relative path of the entry
    title: str
    how: str  # "files" (Files: list), "text" (a path named in the text), "folder" (about a parent)
    linked: str  # the repository path the entry names (the file itself, or the folder)
    freshness: Freshness


class PathAbout(NamedTuple):
    """What the tree knows about one repository path, direct links first."""

    path: str  # repository-relative POSIX path as asked (normalised)
    exists: bool  # a file or a folder of the repository's HEAD or work tree
    direct: tuple[AboutEntry, ...]
    folder: tuple[AboutEntry, ...]
    note: str | None = None  # e.g. "outside the repository"


class About(NamedTuple):
    """The answer of ``brv about PATH...``."""

    repository: str  # absolute path of the code repository
    mode: str  # "in-project" or "standalone"
    paths: tuple[PathAbout, ...]
    notes: tuple[str, ...] = ()


class StaleEntry(NamedTuple):
    """An entry whose linked files changed, were deleted or renamed after it was written."""

    entry: str
    reason: str  # "changed" | "deleted" | "renamed" (the strongest of its files)
    files: tuple[str, ...]  # the linked files concerned, as the entry names them
    renamed_to: dict[str, str]  # old path -> new path
    commits_since: int
    last_commit: Commit | None
    file_reasons: dict[str, str]  # each file -> its own reason


class Outside(NamedTuple):
    """A path an entry names that is not inside the code repository (never linked)."""

    entry: str
    path: str


class StaleReport(NamedTuple):
    """The answer of ``brv stale``."""

    repository: str
    mode: str
    since: str | None
    head: str | None
    entries: tuple[StaleEntry, ...]
    linked_entries: int  # entries with at least one file link
    commits_walked: int
    outside: tuple[Outside, ...] = ()
    missing_history: str | None = None  # shallow clone: what could not be answered
    notes: tuple[str, ...] = ()
