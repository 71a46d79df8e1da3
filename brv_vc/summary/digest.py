"""A tolerant view of one knowledge file: what summaries need from it.

Regenerating a folder's ``_index.md`` reads every child; ``parse_entry`` reads the canonical
frontmatter brv writes without PyYAML, so that stays cheap. A broken file never stops a
summary: it is listed by its name.
"""

from __future__ import annotations

from brv_vc.errors import FormatError
from brv_vc.format.entry import Entry, decode, parse_entry
from brv_vc.record import NamedTuple


class Digest(NamedTuple):
    """Title, summary, keywords and body of a knowledge file (``broken``: why it did not parse)."""

    title: str
    summary: str = ""
    tags: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    updated_at: str = ""
    body: str = ""
    broken: str = ""


def strict_digest(text: str, *, stem: str, file: str | None = None) -> Digest:
    """Reads a knowledge file strictly: canonical frontmatter fast, anything else with YAML.

    Raises:
        FormatError: the file is not a valid knowledge file.
    """
    return entry_digest(parse_entry(text, file=file, stem=stem))  # canonical: no PyYAML


def entry_digest(entry: Entry) -> Digest:
    """The digest of an entry already parsed."""
    return Digest(
        title=entry.title,
        summary=entry.summary,
        tags=entry.tags,
        keywords=entry.keywords,
        updated_at=entry.updated_at,
        body=entry.body,
    )


def digest(data: bytes, *, stem: str, file: str | None = None) -> Digest:
    """Reads a knowledge file tolerantly (never raises).

    Args:
        data: the file's bytes.
        stem: the file name without ``.md`` (the title of last resort).
        file: the path named in problems.

    Returns:
        The digest; ``broken`` holds the parse error when the file is not valid.
    """
    try:
        text = decode(data, file=file)
    except FormatError as exc:
        return Digest(title=stem, broken=exc.message)
    try:
        return strict_digest(text, stem=stem, file=file)
    except FormatError as exc:
        return Digest(title=stem, body=text, broken=exc.message)
