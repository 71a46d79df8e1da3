"""MERGE: fold a source entry into a target entry, section by section (seed 002 Table 1).

Rules (docs/curate.md):
- frontmatter: the target keeps its title (its file is named after it and other entries point
  at it); summary is the target's unless empty; tags, keywords and related are unioned
  (target first); the earliest ``createdAt`` wins; ``updatedAt`` is fresh; unknown keys are
  kept (the target's value wins).
- Facts: unioned and de-duplicated by ``Fact.key()`` (subject + statement, case folded).
- Raw Concept: list labels (Changes, Files) unioned; other labels keep the target's value and
  take the source's only when the target has none.
- Narrative and any other section: ``### `` subsections merged by name; inside, paragraphs are
  concatenated without duplicates and bullet items are unioned.
- Relations: the target drops its links to the source and to itself; every other entry that
  pointed at the source points at the target instead (:func:`relink`).
"""

from __future__ import annotations

import re

from brv_vc.clock import parse_iso
from brv_vc.format import body as bodymod
from brv_vc.format.entry import Entry
from brv_vc.format.relations import target_key
from brv_vc.services.curate import content

_FENCE = ("```", "~~~")


def earliest(a: str, b: str) -> str:
    """Returns the earlier of two ISO timestamps (an empty one never wins)."""
    if not a or not b:
        return a or b
    try:
        return a if parse_iso(a) <= parse_iso(b) else b
    except ValueError:
        return a


def merge_entries(target: Entry, source: Entry, updated_at: str) -> Entry:
    """Returns ``target`` with ``source`` folded in (see the module rules)."""
    t_pre, t_sections = content.body_sections(target.body)
    s_pre, s_sections = content.body_sections(source.body)
    merged: dict[str, str] = dict(t_sections)
    for name, text in s_sections.items():
        merged[name] = merge_section(name, merged[name], text) if name in merged else text
    extra = dict(source.extra)
    extra.update(dict(target.extra))
    return target.with_changes(
        summary=target.summary or source.summary,
        tags=content.unique([*target.tags, *source.tags]),
        keywords=content.unique([*target.keywords, *source.keywords]),
        related=content.unique([*target.related, *source.related]),
        created_at=earliest(target.created_at, source.created_at),
        updated_at=updated_at,
        body=content.build(merge_text(t_pre, s_pre), merged),
        extra=tuple(extra.items()),
    )


def merge_section(name: str, target: str, source: str) -> str:
    """Merges the text of two sections of the same name."""
    if name == bodymod.FACTS:
        return merge_facts(target, source)
    if name == bodymod.RAW_CONCEPT:
        return merge_raw_concept(target, source)
    if name == bodymod.RELATIONS:
        lines = [*target.splitlines(), *source.splitlines()]
        return "\n".join(dict.fromkeys(line.rstrip() for line in lines if line.strip()))
    return merge_subsections(target, source)


def merge_facts(target: str, source: str) -> str:
    """Unions two Facts sections; lines that are not facts are kept once, after the facts."""
    facts: dict[tuple[str, str], bodymod.Fact] = {}
    for fact in [*bodymod.parse_facts(target), *bodymod.parse_facts(source)]:
        facts.setdefault(fact.key(), fact)
    prose = [
        line.rstrip()
        for line in [*target.splitlines(), *source.splitlines()]
        if line.strip() and not _is_item(line)
    ]
    rendered = content.render_facts(facts.values())
    rest = "\n".join(dict.fromkeys(prose))
    return f"{rendered}\n\n{rest}" if rendered and rest else rendered or rest


def merge_raw_concept(target: str, source: str) -> str:
    """Merges Raw Concept blocks label by label (lists unioned; target's scalars win)."""
    t_lead, t_blocks = content.parse_raw_blocks(target)
    s_lead, s_blocks = content.parse_raw_blocks(source)
    blocks = dict(t_blocks)
    for label, value in s_blocks.items():
        mine = blocks.get(label)
        if isinstance(value, tuple):
            blocks[label] = content.unique([*(mine if isinstance(mine, tuple) else ()), *value])
        elif not mine:
            blocks[label] = value
    lead = merge_text(t_lead, s_lead)
    rendered = content.render_raw_blocks(blocks)
    return f"{lead}\n\n{rendered}".strip("\n") if lead else rendered


def merge_subsections(target: str, source: str) -> str:
    """Merges two texts split at ``### `` headings: same-named parts merged, new ones appended."""
    t_lead, t_parts = _split_h3(target)
    s_lead, s_parts = _split_h3(source)
    parts = dict(t_parts)
    for name, text in s_parts.items():
        parts[name] = merge_text(parts[name], text) if name in parts else text
    chunks = [merge_text(t_lead, s_lead)] if (t_lead or s_lead) else []
    chunks.extend(f"### {name}\n{text}".rstrip("\n") for name, text in parts.items())
    return "\n\n".join(chunk for chunk in chunks if chunk.strip())


def merge_text(target: str, source: str) -> str:
    """Concatenates paragraphs without duplicates; bullet items already present are dropped."""
    t_blocks = _blocks(target)
    seen_blocks = {_fold(b) for b in t_blocks}
    seen_items = {_fold(line) for b in t_blocks for line in b.splitlines() if _is_item(line)}
    out = list(t_blocks)
    for block in _blocks(source):
        if _fold(block) in seen_blocks:
            continue
        lines = block.splitlines()
        if lines and all(_is_item(line) for line in lines):
            fresh = [line for line in lines if _fold(line) not in seen_items]
            seen_items.update(_fold(line) for line in fresh)
            if fresh:
                out.append("\n".join(fresh))
            continue
        seen_blocks.add(_fold(block))
        out.append(block)
    return "\n\n".join(out)


def _split_h3(text: str) -> tuple[str, dict[str, str]]:
    lead: list[str] = []
    parts: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(_FENCE):
            in_fence = not in_fence
        if not in_fence and line.startswith("### "):
            current = parts.setdefault(line[4:].strip(), [])
            continue
        (lead if current is None else current).append(line)
    return "\n".join(lead).strip("\n"), {k: "\n".join(v).strip("\n") for k, v in parts.items()}


def _blocks(text: str) -> list[str]:
    """Paragraphs split at blank lines; a fenced code block stays one paragraph."""
    blocks: list[str] = []
    current: list[str] = []
    in_fence = False
    for line in text.splitlines():
        if line.lstrip().startswith(_FENCE):
            in_fence = not in_fence
        if not in_fence and not line.strip():
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line.rstrip())
    if current:
        blocks.append("\n".join(current))
    return blocks


def _is_item(line: str) -> bool:
    return line.lstrip().startswith(("- ", "* "))


def _fold(text: str) -> str:
    return " ".join(text.lower().split())


_RELATION_LINE = re.compile(r"^(?P<head>\s*(?:[-*]\s+)?@)(?P<path>[^\s@]+)(?P<tail>.*)$")


_norm = target_key  # the one key (format/relations.py): the index finds links by it too


def relink(entry: Entry, old: str, new: str | None) -> Entry:
    """Points ``entry``'s relations to ``old`` at ``new`` instead, or drops them (``None``).

    Both the frontmatter ``related`` list and ``@`` lines of a Relations section change; a
    link that would then appear twice is kept once.
    """
    old = _norm(old)
    related: list[str] = []
    for value in entry.related:
        if _norm(value) == old:
            if new is None:
                continue
            value = new
        if _norm(value) not in map(_norm, related):
            related.append(value)
    preamble, sections = bodymod.split_sections(entry.body)
    out = []
    for section in sections:
        if section.name.lower() == bodymod.RELATIONS.lower():
            section = bodymod.Section(section.name, _relink_lines(section.text, old, new))
        out.append(section)
    return entry.with_changes(
        related=tuple(related), body=bodymod.join_sections(preamble, out)
    )


def _relink_lines(text: str, old: str, new: str | None) -> str:
    """Rewrites (or drops) the ``@old`` lines of a Relations section; other lines stay as is."""
    rows = text.splitlines(keepends=True)
    present = {
        _norm(m.group("path")) for row in rows if (m := _RELATION_LINE.match(row.rstrip("\r\n")))
    }
    lines: list[str] = []
    for line in rows:
        match = _RELATION_LINE.match(line.rstrip("\r\n"))
        if match and _norm(match.group("path")) == old:
            if new is None or _norm(new) in present:  # dropped, or the link is already there
                continue
            present.add(_norm(new))
            ending = line[len(line.rstrip("\r\n")) :]
            line = f"{match.group('head')}{new}{match.group('tail')}{ending}"
        lines.append(line)
    return "".join(lines)
