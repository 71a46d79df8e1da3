"""The extractive text of a folder's ``_index.md``: heading, headline, one line a child.

Deterministic (same children, same bytes; no LLM). The headline (purpose, size, key terms)
is what parent folders quote, and :func:`parse_headline` reads it back.
"""

from __future__ import annotations

import re

from brv_vc.format.tokens import count_tokens
from brv_vc.summary.documents import FolderInput
from brv_vc.summary.extract import clip

KINDS = {3: "Root", 2: "Domain", 1: "Topic", 0: "Subtopic"}


def folder_name(relpath: str) -> str:
    """The display name of a folder ('' is the context tree root)."""
    return relpath.rsplit("/", 1)[-1] if relpath else "context tree"


KEY_TERMS = 8
_COUNT = re.compile(r"\b(\d+) entr(?:y|ies)\b")
_TERMS = re.compile(r"Key terms: (.+?)\.\s*$")


def key_terms(folder: FolderInput) -> list[str]:
    """The folder's most frequent tags/keywords (a sub-folder's terms weigh by their rank)."""
    weight: dict[str, float] = {}
    get = weight.get
    for child in folder.children:
        if child.name.endswith(".md"):  # an entry: each term weighs 1 (the common case, kept lean)
            for term in child.terms:
                key = term.lower()
                weight[key] = get(key, 0.0) + 1.0
            continue
        for rank, term in enumerate(child.terms):
            key = term.lower()
            weight[key] = get(key, 0.0) + max((KEY_TERMS - rank) * 0.5, 0.5)
    return [t for t, _ in sorted(weight.items(), key=lambda kv: (-kv[1], kv[0]))[:KEY_TERMS]]


def parse_headline(text: str) -> tuple[int, tuple[str, ...]]:
    """Reads back (entry count, key terms) from a headline written by :func:`headline`."""
    count = _COUNT.search(text)
    terms = _TERMS.search(text)
    return (
        int(count.group(1)) if count else 0,
        tuple(t.strip() for t in terms.group(1).split(",")) if terms else (),
    )


def headline(folder: FolderInput) -> str:
    """The first line under a folder summary's heading: purpose, size, and key terms.

    Parent folders quote it.
    """
    total = sum(c.entries for c in folder.children)
    folders = sum(1 for c in folder.children if c.name.endswith("/"))
    size = f"{total} {'entry' if total == 1 else 'entries'}"
    if folders:
        size += f" in {folders} {'folder' if folders == 1 else 'folders'}"
    parts = [folder.purpose, size + "."]
    terms = key_terms(folder)
    if terms:
        parts.append("Key terms: " + ", ".join(terms) + ".")
    return " ".join(p for p in parts if p)


def folder_summary(folder: FolderInput, budget: int, aggressive: bool) -> str:
    """A folder's ``_index.md`` body: heading, headline, one line a child, fit to the budget."""
    head = f"# {KINDS.get(folder.order, 'Folder')}: {folder_name(folder.relpath)}\n\n"
    head += clip(headline(folder), 600) + "\n"
    lines: list[str] = []
    used = count_tokens(head)
    reserve = 12  # room for the "... and N more" line
    for index, child in enumerate(folder.children):
        if aggressive or not child.text:
            line = f"- **{child.title}** ({child.name})"
        else:
            line = f"- **{child.title}** ({child.name}): {clip(child.text, 240)}"
        cost = count_tokens(line) + 1
        if used + cost > budget - reserve:
            lines.append(f"- … and {len(folder.children) - index} more")
            break
        lines.append(line)
        used += cost
    return head + ("\n" + "\n".join(lines) + "\n" if lines else "")
