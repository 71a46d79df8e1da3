"""What ``brv curate`` reports: each operation's outcome, the counts, and the batch's result."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OpResult:
    """The outcome of one operation (seed 002 §4.1.2), plus the file it touched and a hint."""

    type: str
    path: str
    status: str  # success | failed | skipped
    message: str
    reason: str
    file: str = ""
    action: str = ""  # added | updated | merged | deleted | unchanged
    hint: str = ""
    code: str = ""  # a failed operation's error code (errors.py), as in {"error": {"code"}}


@dataclass(frozen=True)
class Summary:
    """How many operations did what."""

    added: int = 0
    updated: int = 0
    merged: int = 0
    deleted: int = 0
    failed: int = 0

    def text(self) -> str:
        """One line: ``2 added, 1 updated, 0 merged, 0 deleted, 0 failed``."""
        return (
            f"{self.added} added, {self.updated} updated, {self.merged} merged, "
            f"{self.deleted} deleted, {self.failed} failed"
        )


@dataclass(frozen=True)
class CurateResult:
    """A batch's report: ``ok`` is False when any operation failed."""

    ok: bool
    applied: tuple[OpResult, ...]
    summary: Summary
    atomic: bool = False
    problems: tuple[str, ...] = ()
    dry_run: bool = False
