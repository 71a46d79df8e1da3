"""A cheap, tolerant view of one knowledge file: what summaries need from it.

``parse_entry`` runs PyYAML (about 0.5 ms a file); regenerating a folder's ``_index.md``
reads every child, so canonical frontmatter (``key: "json"`` / ``key: [json, ...]`` lines,
which is all brv ever writes) is read with ``json`` instead, falling back to the real
parser for anything else. A broken file never stops a summary: it is listed by its name.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from brv_vc.errors import FormatError
from brv_vc.format.entry import decode, parse_entry

_CANONICAL = re.compile(r'^([A-Za-z_][A-Za-z0-9_]*): ("(?:[^"\\]|\\.)*"|\[.*\])$')


@dataclass(frozen=True)
class Digest:
    """Title, summary, keywords and body of a knowledge file (``broken``: why it did not parse)."""

    title: str
    summary: str = ""
    tags: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    updated_at: str = ""
    body: str = ""
    broken: str = ""


def _quick(text: str) -> dict[str, object] | None:
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end == -1:
        return None
    values: dict[str, object] = {}
    for line in text[4:end].split("\n"):
        match = _CANONICAL.match(line)
        if match is None:
            return None
        try:
            values[match.group(1)] = json.loads(match.group(2))
        except ValueError:
            return None
    values["__body__"] = text[end + 5 :]
    return values


def _strings(value: object) -> tuple[str, ...]:
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


def strict_digest(text: str, *, stem: str, file: str | None = None) -> Digest:
    """Reads a knowledge file strictly: canonical frontmatter fast, anything else with YAML.

    Raises:
        FormatError: the file is not a valid knowledge file.
    """
    quick = _quick(text)
    if quick is not None and isinstance(quick.get("title"), str) and quick["title"]:
        return _from_quick(quick)
    entry = parse_entry(text, file=file, stem=stem)
    return Digest(
        title=entry.title,
        summary=entry.summary,
        tags=entry.tags,
        keywords=entry.keywords,
        updated_at=entry.updated_at,
        body=entry.body,
    )


def _from_quick(quick: dict[str, object]) -> Digest:
    def get(key: str) -> str:
        value = quick.get(key)
        return value if isinstance(value, str) else ""

    return Digest(
        title=get("title"),
        summary=get("summary"),
        tags=_strings(quick.get("tags")),
        keywords=_strings(quick.get("keywords")),
        updated_at=get("updatedAt"),
        body=str(quick["__body__"]),
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
    quick = _quick(text)
    if quick is not None and isinstance(quick.get("title"), str) and quick["title"]:
        return _from_quick(quick)
    try:
        entry = parse_entry(text, file=file, stem=stem)
    except FormatError as exc:
        return Digest(title=stem, body=text, broken=exc.message)
    return Digest(
        title=entry.title,
        summary=entry.summary,
        tags=entry.tags,
        keywords=entry.keywords,
        updated_at=entry.updated_at,
        body=entry.body,
    )

