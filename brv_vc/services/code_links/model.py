"""The results of the code-links services: frozen records, never printed here."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Commit:
    """One commit of the code repository, as a person reads it in a log line."""

    sha: str
    date: str  # ISO 8601 (committer date, UTC offset as git wrote it)
    subject: str


@dataclass(frozen=True)
class Freshness:
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


@dataclass(frozen=True)
class AboutEntry:
    """An entry that describes a path: directly (its ``Files:`` or its text) or its folder."""

    entry: str  # tree-relative path of the entry
    title: str
    how: str  # "files" (Files: list), "text" (a path named in the text), "folder" (about a parent)
    linked: str  # the repository path the entry names (the file itself, or the folder)
    freshness: Freshness


@dataclass(frozen=True)
class PathAbout:
    """What the tree knows about one repository path, direct links first."""

    path: str  # repository-relative POSIX path as asked (normalised)
    exists: bool  # a file or a folder of the repository's HEAD or work tree
    direct: tuple[AboutEntry, ...]
    folder: tuple[AboutEntry, ...]
    note: str | None = None  # e.g. "outside the repository"


@dataclass(frozen=True)
class About:
    """The answer of ``brv about PATH...``."""

    repository: str  # absolute path of the code repository
    mode: str  # "in-project" or "standalone"
    paths: tuple[PathAbout, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class StaleEntry:
    """An entry whose linked files changed, were deleted or renamed after it was written."""

    entry: str
    reason: str  # "changed" | "deleted" | "renamed" (the strongest of its files)
    files: tuple[str, ...]  # the linked files concerned, as the entry names them
    renamed_to: dict[str, str] = field(default_factory=dict)  # old path -> new path
    commits_since: int = 0
    last_commit: Commit | None = None
    file_reasons: dict[str, str] = field(default_factory=dict)  # each file -> its own reason


@dataclass(frozen=True)
class Outside:
    """A path an entry names that is not inside the code repository (never linked)."""

    entry: str
    path: str


@dataclass(frozen=True)
class StaleReport:
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
