"""Time in one place: ISO 8601 text <-> aware datetimes, and an injectable "now".

Every service takes ``now`` as an argument; only the CLI entry point decides what it is
(the real clock, or ``BRV_NOW`` for reproducible runs and tests).
"""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Returns the current time, aware, in UTC, to the second."""
    return datetime.now(UTC).replace(microsecond=0)


def format_iso(moment: datetime) -> str:
    """Formats as ``2025-03-18T10:00:00Z`` (the seed's timestamp form)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_iso(text: str) -> datetime:
    """Parses an ISO 8601 timestamp; a naive one is taken as UTC.

    Raises:
        ValueError: the text is not an ISO 8601 timestamp.
    """
    value = text.strip()
    if value.endswith(("Z", "z")):
        value = value[:-1] + "+00:00"
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def days_between(earlier: float, later: float) -> float:
    """Days from one epoch-seconds instant to another, never negative."""
    return max(0.0, (later - earlier) / 86400.0)
