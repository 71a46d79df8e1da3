"""Tier 2 of ``brv query``: a direct answer composed from the top search results, no LLM.

The gate (:func:`is_direct`) and the text (Summary / Details / Sources) of byterover §5.2;
without a provider, the query service also answers with this text below the gate.
"""

from __future__ import annotations

from brv_vc.index.entries import ids_of
from brv_vc.index.search import Hit, SearchOutcome
from brv_vc.index.texts import contents
from brv_vc.services.derived import OpenIndex
from brv_vc.services.query.text import first_sentences, readable

DIRECT_MIN, DIRECT_HIGH, DIRECT_GAP = 0.85, 0.93, 0.08  # byterover §5.2 / seed 002 Table 7
DIRECT_DOCS, DIRECT_CHARS = 5, 5000
SUMMARY_CHARS = 300


def is_direct(hits: tuple[Hit, ...]) -> bool:
    """Tier 2's gate: top >= 0.85 and (one result, or top >= 0.93, or gap to #2 >= 0.08)."""
    if not hits or hits[0].score < DIRECT_MIN:
        return False
    top = hits[0].score
    return len(hits) == 1 or top >= DIRECT_HIGH or top - hits[1].score >= DIRECT_GAP


def indexed_texts(opened: OpenIndex, paths: list[str]) -> dict[str, str]:
    """The indexed text of each path (an entry: summary, tags, keywords, then its body)."""
    ids = ids_of(opened.conn, paths)
    return {ids[rowid]: text for rowid, text in contents(opened.conn, list(ids)).items()}


def _split_entry(kind: str, content: str) -> tuple[str, str]:
    """(summary line, body) of an indexed document.

    An entry's indexed text is its summary, tags and keywords on one line each, then the body
    (``Entry.text_for_search``).
    """
    parts = content.split("\n", 3)
    if kind == "entry" and len(parts) == 4:
        return parts[0].strip(), parts[3]
    return "", content


def direct_answer(opened: OpenIndex, outcome: SearchOutcome) -> str:
    """Summary / Details / Sources from the top documents, no LLM (byterover §5.2 tier 2)."""
    hits = outcome.hits[:DIRECT_DOCS]
    contents = indexed_texts(opened, [h.path for h in hits])
    top = hits[0]
    summary, top_body = _split_entry(top.kind, contents.get(top.path, ""))
    # no summary: the opening sentences of the text, never its raw markdown headings
    opening = summary or first_sentences(top_body, SUMMARY_CHARS) or top.excerpt[:SUMMARY_CHARS]
    lines = [f"Summary: {top.title}: {opening}", "", "Details:"]
    for hit in hits:
        _, body = _split_entry(hit.kind, contents.get(hit.path, ""))
        lines += ["", f"### {hit.title} ({hit.path}, score {hit.score:.2f})",
                  readable(body, DIRECT_CHARS)]
    lines += ["", "Sources:", *(f"- {h.path}" for h in hits)]
    return "\n".join(lines)
