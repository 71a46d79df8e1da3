"""A readable, normalised rendering of a knowledge file for ``git diff`` (the textconv).

Frontmatter keys come out in one fixed order, one list item a line, so a reflow or a key
reorder shows no diff and a tag change shows as one ``+``/``-`` line. The body is unchanged.
"""

from __future__ import annotations

import json

from brv_vc.errors import FormatError
from brv_vc.format.entry import parse_entry


def render(data: bytes, *, path: str = "") -> str:
    """Returns the normalised text of a knowledge file (the raw text if it does not parse)."""
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    try:
        entry = parse_entry(data, file=path, stem=stem)
    except FormatError:
        return data.decode("utf-8", "replace")
    lines = [f"title: {entry.title}", f"summary: {entry.summary}"]
    for key in ("tags", "keywords", "related"):
        items = sorted(getattr(entry, key))
        lines.append(f"{key}:" + ("" if items else " []"))
        lines.extend(f"  - {item}" for item in items)
    lines += [f"createdAt: {entry.created_at}", f"updatedAt: {entry.updated_at}"]
    for key, value in sorted(entry.extra):
        lines.append(f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)}")
    body = entry.body if entry.body.startswith("\n") else "\n" + entry.body
    return "\n".join(lines) + "\n" + body
