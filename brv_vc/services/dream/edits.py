"""The file edits of dream operations that do not go through curate (pure over entries)."""

from __future__ import annotations

from collections.abc import Sequence

from brv_vc.format import body as bodymod
from brv_vc.format.entry import Entry


def with_note(entry: Entry, note: str, day: str, updated_at: str) -> Entry:
    """TEMPORAL_UPDATE: the note appended to the Narrative (``### Update <day>``)."""
    block = f"### Update {day}\n{note.strip()}\n"
    preamble, sections = bodymod.split_sections(entry.body)
    for i, section in enumerate(sections):
        if section.name.lower() == bodymod.NARRATIVE.lower():
            text = section.text.rstrip("\n")
            sections[i] = bodymod.Section(section.name, f"{text}\n\n{block}" + (
                "\n" if i < len(sections) - 1 else ""))
            return entry.with_changes(body=bodymod.join_sections(preamble, sections),
                                      updated_at=updated_at)
    narrative = bodymod.Section(bodymod.NARRATIVE, f"{block}")
    body = entry.body.rstrip("\n")
    glue = "\n\n" if body.strip() else "\n"
    return entry.with_changes(body=body + glue + narrative.render(), updated_at=updated_at)


def with_links(entry: Entry, others: Sequence[str]) -> Entry:
    """CROSS_REFERENCE: ``others`` added to ``related`` (a link, not new knowledge)."""
    have = {r.removesuffix(".md") for r in entry.relations()}
    fresh = [o for o in others if o.removesuffix(".md") not in have]
    return entry.with_changes(related=(*entry.related, *fresh)) if fresh else entry


def with_lineage(entry: Entry, sources: Sequence[str], stamp: str) -> Entry:
    """MERGE target: ``consolidated_at`` and ``consolidated_from`` (earlier lineage kept)."""
    extra = dict(entry.extra)
    before = extra.get("consolidated_from")
    lineage = [str(x) for x in before] if isinstance(before, list) else []
    extra["consolidated_at"] = stamp
    extra["consolidated_from"] = list(dict.fromkeys([*lineage, *sources]))
    return entry.with_changes(extra=tuple(extra.items()))
