"""Turning a curate operation's content into body sections, and reading them back for MERGE.

The sections are seed 000's Raw Concept, Narrative and Facts; read back, they give the parts
MERGE can combine.

Everything here is pure text work: same input, same output.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from brv_vc.format import body as bodymod
from brv_vc.format.relations import written
from brv_vc.tree.layout import clean_relpath

# Raw Concept labels, in the order brv writes them. Inline labels hold one short value on the
# label line (seed 002 Figure 3: "**Timestamp:** ..."); the others hold a block below the label.
RAW_LABELS = ("Task", "Changes", "Files", "Flow", "Timestamp", "Author")
RAW_LIST_LABELS = frozenset({"Changes", "Files"})
RAW_INLINE_LABELS = frozenset({"Timestamp", "Author"})
NARRATIVE_PARTS = ("Structure", "Dependencies", "Highlights", "Rules", "Examples", "Diagrams")
_LABEL_RE = re.compile(r"^\*\*(?P<label>[A-Za-z][A-Za-z ]*?):\*\*[ \t]*(?P<rest>.*)$")
_ITEM_RE = re.compile(r"^\s*[-*]\s+")
_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")


def normalise_related(values: Iterable[str]) -> tuple[str, ...]:
    """Normalises relation targets: ``@`` stripped, lowercase, spaces to ``_``, unique, in order.

    Each result is its own ``format.relations.target_path`` (``./`` is dropped by
    ``clean_relpath``), so the index and a MERGE read it as written.

    Raises:
        InvalidPathError: a target that is absolute or leaves the tree (``..``).
    """
    out = []
    for value in values:
        text = written(value).lower().replace(" ", "_").rstrip("/")
        if text:
            out.append(clean_relpath(text, what="related target"))
    return tuple(dict.fromkeys(out))


def unique(values: Iterable[str]) -> tuple[str, ...]:
    """Strips values and drops empty ones and repeats, keeping the first occurrence."""
    return tuple(dict.fromkeys(v.strip() for v in values if v.strip()))


def has_sections(text: str) -> bool:
    """True when markdown holds a ``## `` section heading outside fenced code."""
    return bool(bodymod.split_sections(text)[1])


def _lines_or_text(value: str | Sequence[str]) -> str:
    if isinstance(value, str):
        return value.strip("\n")
    return "\n".join(f"- {item.strip()}" for item in value if item.strip())


def render_raw_concept(raw: Mapping[str, Any]) -> str:
    """Renders a ``rawConcept`` object (task, changes, files, flow, timestamp, author)."""
    blocks: dict[str, str | tuple[str, ...]] = {}
    for label in RAW_LABELS:
        value = raw.get(label.lower())
        if value is None:
            continue
        blocks[label] = unique(value) if label in RAW_LIST_LABELS else str(value).strip()
    return render_raw_blocks(blocks)


def render_raw_blocks(blocks: Mapping[str, str | tuple[str, ...]]) -> str:
    """Renders Raw Concept blocks (label -> text, or a tuple of list items) canonically."""
    parts: list[str] = []
    inline: list[str] = []
    order = [
        *[lbl for lbl in RAW_LABELS if lbl in blocks],
        *[lbl for lbl in blocks if lbl not in RAW_LABELS],
    ]
    for label in order:
        value = blocks[label]
        if not value:
            continue
        if isinstance(value, tuple):
            parts.append(f"**{label}:**\n" + "\n".join(f"- {item}" for item in value))
        elif label in RAW_INLINE_LABELS and "\n" not in value:
            inline.append(f"**{label}:** {value}")
        else:
            parts.append(f"**{label}:**\n{value}")
    if inline:
        parts.append("\n".join(inline))
    return "\n\n".join(parts)


def parse_raw_blocks(text: str) -> tuple[str, dict[str, str | tuple[str, ...]]]:
    """Splits a Raw Concept section into (text before any label, label -> value).

    Accepts both ByteRover forms, ``**Task:** value`` and ``**Task:**`` then the value below.
    List labels (Changes, Files) give a tuple of items; ``a, b`` on one line counts as a list.
    """
    lead: list[str] = []
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        match = _LABEL_RE.match(line)
        if match:
            label = match.group("label").strip().title()
            current = blocks.setdefault(label, [])
            if match.group("rest").strip():
                current.append(match.group("rest").strip())
            continue
        (lead if current is None else current).append(line)
    parsed: dict[str, str | tuple[str, ...]] = {}
    for label, lines in blocks.items():
        if label in RAW_LIST_LABELS:
            items: list[str] = []
            for line in lines:
                stripped = _ITEM_RE.sub("", line).strip()
                if stripped:
                    items.extend(p.strip() for p in stripped.split(", ") if p.strip())
            parsed[label] = unique(items)
        else:
            parsed[label] = "\n".join(lines).strip("\n").strip()
    return "\n".join(lead).strip("\n"), parsed


def render_narrative(narrative: Mapping[str, Any]) -> str:
    """Renders a ``narrative`` object as ``### Structure`` ... ``### Diagrams`` subsections."""
    parts = []
    for name in NARRATIVE_PARTS:
        value = narrative.get(name.lower())
        if value:
            text = _lines_or_text(value)
            if text.strip():
                parts.append(f"### {name}\n{text}")
    return "\n\n".join(parts)


def render_facts(facts: Iterable[bodymod.Fact]) -> str:
    """Renders facts as seed 000's list lines, one a line."""
    return "\n".join(fact.render() for fact in facts)


def facts_from_op(items: Iterable[Mapping[str, Any]]) -> list[bodymod.Fact]:
    """Builds facts from an operation's ``facts`` array, de-duplicated by ``Fact.key()``."""
    seen: dict[tuple[str, str], bodymod.Fact] = {}
    for item in items:
        fact = bodymod.Fact(
            statement=" ".join(str(item["statement"]).split()),
            subject=(" ".join(str(item["subject"]).split()) or None)
            if item.get("subject")
            else None,
            category=item.get("category"),
        )
        seen.setdefault(fact.key(), fact)
    return list(seen.values())


def op_sections(op: Mapping[str, Any]) -> tuple[str, dict[str, str]]:
    """Returns (preamble, section name -> text) for the content an operation carries.

    ``content`` with ``## `` sections is a full body; plain ``content`` becomes the Narrative,
    followed by any structured ``narrative`` parts. Only sections the operation mentions are
    returned, so UPDATE can keep the others (ByteRover's structural-loss guard).
    """
    preamble = ""
    sections: dict[str, str] = {}
    content = (op.get("content") or "").replace("\r\n", "\n")
    if content.strip():
        if has_sections(content):
            pre, found = bodymod.split_sections(content)
            preamble = pre.strip("\n")
            for section in found:
                name = _canonical_name(section.name)
                text = section.text.strip("\n")
                sections[name] = f"{sections[name]}\n\n{text}" if name in sections else text
        else:
            sections[bodymod.NARRATIVE] = content.strip("\n")
    if op.get("rawConcept"):
        sections[bodymod.RAW_CONCEPT] = render_raw_concept(op["rawConcept"])
    if op.get("narrative"):
        structured = render_narrative(op["narrative"])
        if structured:
            plain = sections.get(bodymod.NARRATIVE, "")
            sections[bodymod.NARRATIVE] = f"{plain}\n\n{structured}" if plain else structured
    if op.get("facts"):
        sections[bodymod.FACTS] = render_facts(facts_from_op(op["facts"]))
    return preamble, {name: text for name, text in sections.items() if text.strip()}


def _canonical_name(name: str) -> str:
    for known in bodymod.SECTION_ORDER:
        if name.lower() == known.lower():
            return known
    return name


def body_sections(body: str) -> tuple[str, dict[str, str]]:
    """Splits an existing body into (preamble, section name -> text), canonical names."""
    pre, found = bodymod.split_sections(body)
    sections: dict[str, str] = {}
    for section in found:
        name = _canonical_name(section.name)
        text = section.text.strip("\n")
        sections[name] = f"{sections[name]}\n\n{text}" if name in sections else text
    return pre.strip("\n"), sections


def build(preamble: str, sections: Mapping[str, str]) -> str:
    """Builds a canonical body: preamble, then sections in seed order (others after)."""
    order = bodymod.canonical_section_order(sections)
    body = bodymod.build_body([(name, sections[name]) for name in order])
    if preamble.strip():
        return "\n" + preamble.strip("\n") + "\n" + body
    return body
