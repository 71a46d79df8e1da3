"""The ``context.md`` written when a curate first creates a domain, topic or subtopic (seed 000).

The text is deterministic (same folder and entry, same bytes) and extractive: it is built from
the names and from the entry that created the folder, with no LLM. It is written once, only
when the folder is new, and never rewritten: people edit these files to describe ownership and
scope, and brv must not overwrite their words.

Each file carries the generator's marker (``tree/generated.py``): while nobody edits it, it is
filler, not knowledge (no search hit, no added entry in a diff, no input to summaries).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from brv_vc.format.entry import Entry
from brv_vc.tree.generated import mark


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ").strip()


def _bullets(values: tuple[str, ...], limit: int = 8) -> str:
    return "\n".join(f"- {v}" for v in values[:limit])


def domain_context(domain: str, topic: str, first: Entry | None) -> str:
    """Returns the ``context.md`` of a new domain (Purpose, Scope, Ownership, Usage)."""
    included = [_words(topic)]
    if first is not None:
        included.append(first.title)
    return (
        f"# Domain: {domain}\n\n"
        f"## Purpose\nCovers the project's knowledge about {_words(domain)}.\n\n"
        f"## Scope\nIncluded in this domain:\n{_bullets(tuple(dict.fromkeys(included)))}\n\n"
        "## Ownership\nNot set yet: edit this file to name the owning team.\n\n"
        f"## Usage\nReference when working on {_words(domain)}.\n"
    )


def topic_context(domain: str, topic: str, first: Entry | None) -> str:
    """Returns the ``context.md`` of a new topic (Overview, Key Concepts, Related Topics)."""
    overview = (first.summary if first is not None and first.summary else "") or (
        f"Knowledge about {_words(topic)} within {_words(domain)}."
    )
    concepts: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    if first is not None:
        concepts = tuple(dict.fromkeys([first.title, *first.keywords, *first.tags]))
        related = tuple(dict.fromkeys(r.removesuffix(".md") for r in first.related))
    text = f"# Topic: {topic}\n\n## Overview\n{overview}\n\n"
    text += f"## Key Concepts\n{_bullets(concepts) or '- ' + _words(topic)}\n\n"
    text += f"## Related Topics\n{_bullets(related) or '- none yet'}\n"
    return text


def subtopic_context(topic: str, subtopic: str, first: Entry | None) -> str:
    """Returns the ``context.md`` of a new subtopic (Focus, Parent Relation)."""
    focus = (first.summary if first is not None and first.summary else "") or (
        f"{_words(subtopic).capitalize()}."
    )
    return (
        f"# Subtopic: {subtopic}\n\n"
        f"## Focus\n{focus}\n\n"
        f"## Parent Relation\nPart of {topic}: covers {_words(subtopic)}.\n"
    )


def contexts_for(segments: tuple[str, ...], first: Entry | None) -> list[tuple[str, str]]:
    """Returns (folder relpath, marked context text) for every level of ``domain/topic[/subtopic]``."""
    return [(folder, mark(text)) for folder, text in _plain_contexts(segments, first)]


def _plain_contexts(segments: tuple[str, ...], first: Entry | None) -> list[tuple[str, str]]:
    domain, topic = segments[0], segments[1]
    out = [
        (domain, domain_context(domain, topic, first)),
        (f"{domain}/{topic}", topic_context(domain, topic, first)),
    ]
    if len(segments) == 3:
        out.append((f"{domain}/{topic}/{segments[2]}", subtopic_context(topic, segments[2], first)))
    return out


class _View(Protocol):
    def read(self, rel: str) -> bytes: ...

    def is_file(self, rel: str) -> bool: ...


def forgotten_in(view: _View, rel: str) -> list[tuple[str, bytes]]:
    """:func:`forgotten` for an entry of a curate view (its pending writes included)."""
    return forgotten(rel, view.read(rel), lambda p: view.read(p) if view.is_file(p) else None)


def forgotten(rel: str, data: bytes, read: Callable[[str], bytes | None]) -> list[tuple[str, bytes]]:
    """The ``context.md`` rewrites that stop naming an entry about to be deleted.

    Trigger: DELETE or MERGE removes the entry that created its folders. Why: their
    ``context.md`` was written from it (its title, summary, keywords), so search would still
    answer from a deleted entry. Outcome: each ``context.md`` still holding exactly the text
    brv wrote from that entry is written again as for a folder created without one; a file
    people edited is left alone (their words win).

    Args:
        rel: the entry's tree path.
        data: its bytes.
        read: the current bytes of a tree path, or None when there is no file.
    """
    from brv_vc.errors import FormatError
    from brv_vc.format.entry import parse_entry

    segments = tuple(rel.split("/")[:-1])
    if len(segments) < 2:
        return []
    try:
        entry = parse_entry(data, file=rel, stem=rel.rsplit("/", 1)[-1].removesuffix(".md"))
    except FormatError:
        return []
    writes = []
    for (folder, text), (_, plain) in zip(
        _plain_contexts(segments, entry), _plain_contexts(segments, None), strict=True
    ):
        path = f"{folder}/context.md"
        # a file written before the generator's marker existed holds the plain text
        if text != plain and read(path) in (mark(text).encode("utf-8"), text.encode("utf-8")):
            writes.append((path, mark(plain).encode("utf-8")))
    return writes
