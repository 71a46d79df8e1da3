"""The ``context.md`` written when a curate first creates a domain, topic or subtopic (seed 000).

The text is deterministic (same folder and entry, same bytes) and extractive: it is built from
the names and from the entry that created the folder, with no LLM. It is written once, only
when the folder is new, and never rewritten: people edit these files to describe ownership and
scope, and brv must not overwrite their words.
"""

from __future__ import annotations

from brv_vc.format.entry import Entry


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
    """Returns (folder relpath, context text) for every level of ``domain/topic[/subtopic]``."""
    domain, topic = segments[0], segments[1]
    out = [
        (domain, domain_context(domain, topic, first)),
        (f"{domain}/{topic}", topic_context(domain, topic, first)),
    ]
    if len(segments) == 3:
        out.append((f"{domain}/{topic}/{segments[2]}", subtopic_context(topic, segments[2], first)))
    return out
