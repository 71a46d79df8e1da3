"""The default engine: deterministic, extractive text (same input, same bytes; no LLM).

Abstract = title + summary + first key sentence. Overview = key points (facts, first
sentences of sections), entities (keywords, tags, bold subjects, code identifiers) and
patterns (the Raw Concept flow, Narrative rules). Folder summaries are :mod:`folder_text`'s.
Each function aims at the budget it is given; the escalation ladder in
:mod:`brv_vc.summary.budgets` checks the result.
"""

from __future__ import annotations

import re

from brv_vc.format.body import parse_facts, split_sections
from brv_vc.format.tokens import CHARS_PER_TOKEN, count_tokens
from brv_vc.pattern import lazy
from brv_vc.summary.documents import Document

# a fence left open runs to the end of the text (CommonMark): none of it is prose
_FENCE_BLOCK = lazy(r"^\s{0,3}(```|~~~).*?(?:^\s{0,3}\1[^\n]*$|\Z)", re.MULTILINE | re.DOTALL)
_TABLE_ROW = lazy(r"^[ \t]{0,3}\|.*$", re.MULTILINE)  # a table's cells are not sentences
_ITEM_START = lazy(r"\n(?=[ \t]*(?:[-*+]|\d+[.)])[ \t])")
_CODE_BLOCK = lazy(r"^\s{0,3}(?:```|~~~)[^\n]*\n(.*?)^\s{0,3}(?:```|~~~)", re.M | re.S)
_MARKUP = lazy(r"(\*\*|__|`|^#+\s+|^\s*[-*+]\s+|^\s*\d+\.\s+)", re.MULTILINE)
_SENTENCE_END = lazy(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"'(])")
_BOLD = lazy(r"\*\*([^*\n]{1,60}?)\*\*")
_TICKED = lazy(r"`([^`\n]{1,60})`")
_CALL = lazy(r"\b([A-Za-z_][A-Za-z0-9_]{2,40})\s*\(")
_LIST_ITEM = lazy(r"^\s*[-*+]\s+(.+?)\s*$", re.MULTILINE)
_FLOW = lazy(r"\*\*Flow:\*\*\s*\n?(.+)")
_SUBHEAD = lazy(r"^###\s+(.+?)\s*$", re.MULTILINE)
_LABEL = lazy(r"^\*\*[^*\n]+:\*\*\s*$", re.MULTILINE)
ITEM_CHARS = 300


_HEADING = lazy(r"^[ \t]{0,3}#{1,6}[ \t].*$", re.MULTILINE)


def plain(text: str) -> str:
    """Returns ``text`` without code blocks, headings and markdown markup, whitespace collapsed.

    Headings go because a heading names a section; it is not a sentence of it.
    """
    text = _FENCE_BLOCK.sub(" ", text)
    text = _TABLE_ROW.sub(" ", text)
    text = _HEADING.sub(" ", text)
    text = _LABEL.sub(" ", text)
    return " ".join(_MARKUP.sub("", text).split())


def sentences(text: str) -> list[str]:
    """Splits prose into sentences (after :func:`plain`); each list item is one at least.

    Code blocks and tables are never part of one (issue 38: an export carried a JSON
    block's ``{`` as a fact).
    """
    found: list[str] = []
    for block in _ITEM_START.split(_FENCE_BLOCK.sub(" ", text)):
        flat = plain(block)
        found.extend(s.strip() for s in _SENTENCE_END.split(flat) if s.strip())
    return found


def clip(text: str, limit: int = ITEM_CHARS) -> str:
    """Cuts ``text`` to ``limit`` characters at a word boundary, marking the cut."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > limit // 2 else cut).rstrip(" ,;:") + "…"


def _unique(items: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        key = item.lower()
        if item and key not in seen:
            seen.add(key)
            out.append(item)
    return out


def _section_map(body: str) -> dict[str, str]:
    preamble, sections = split_sections(body)
    found = {"": preamble}
    for section in sections:
        found.setdefault(section.name.lower(), section.text)
    return found


def _subsections(text: str) -> dict[str, str]:
    parts = _SUBHEAD.split(text)
    found = {"": parts[0]}
    for name, content in zip(parts[1::2], parts[2::2], strict=False):
        found.setdefault(name.lower(), content)
    return found


def key_points(doc: Document, most: int = 7) -> list[str]:
    """Key points: facts, the first sentence of every section, then the most central others.

    Trigger: an entry written as prose (``--content``/``--file``) has one section, so its
    section openings alone give one point. Why: issue 4 asks for 3-7 key points. Outcome:
    the first sentence of every further paragraph, then the remaining sentences that share
    most words with the rest of the entry (ties by position), are added in document order
    until there are ``most`` points.
    """
    sections = _section_map(doc.digest.body)
    points = [
        f"{f.subject}: {f.statement}" if f.subject else f.statement
        for f in parse_facts(sections.get("facts", ""))
    ]
    openings: list[str] = []
    rest: list[str] = []  # every other sentence, in document order
    for name, text in sections.items():
        if name in ("facts", "relations"):
            continue
        for sub, content in _subsections(text).items():
            if sub == "rules":
                continue
            paragraphs = [p for p in content.strip().split("\n\n") if p.strip()]
            for number, paragraph in enumerate(paragraphs):
                found = sentences(paragraph)
                if not found:
                    continue
                if number == 0:
                    points.append(found[0])
                else:
                    openings.append(found[0])
                rest.extend(found[1:])
    points = _unique([clip(p) for p in points])
    for extra in (openings, _central(rest, most)):
        for sentence in _unique([clip(p) for p in extra]):
            if len(points) >= most:
                return points
            if sentence.lower() not in {p.lower() for p in points}:
                points.append(sentence)
    return points


_WORD = lazy(r"[^\W_]{3,}")


def _central(candidates: list[str], count: int) -> list[str]:
    """The ``count`` sentences sharing most words with the others, in their original order."""
    words = [set(_WORD.findall(s.lower())) for s in candidates]
    frequency: dict[str, int] = {}
    for found in words:
        for word in found:
            frequency[word] = frequency.get(word, 0) + 1
    score = [
        sum(frequency[w] - 1 for w in found) / (1 + len(found)) for found in words
    ]
    best = sorted(range(len(candidates)), key=lambda i: (-score[i], i))[:count]
    return [candidates[i] for i in sorted(best)]


_RULE_WORDS = lazy(
    r"\b(always|never|must|should|avoid|prefer|only|do not|don't|instead of|whenever)\b", re.I
)


def patterns(doc: Document) -> list[str]:
    """Patterns: the Raw Concept flow, the Narrative rules, then prose that states a rule.

    Rule sentences are those with always, never, must, should, avoid, prefer, and the like.
    """
    sections = _section_map(doc.digest.body)
    found = [m.group(1).strip() for m in _FLOW.finditer(sections.get("raw concept", ""))]
    narrative = _subsections(sections.get("narrative", ""))
    for name in ("rules", "patterns"):
        found.extend(m.group(1) for m in _LIST_ITEM.finditer(narrative.get(name, "")))
    found.extend(m.group(1) for m in _LIST_ITEM.finditer(sections.get("patterns", "")))
    prose = "\n\n".join(t for n, t in sections.items() if n not in ("facts", "relations"))
    found.extend(s for s in sentences(prose) if _RULE_WORDS.search(s))
    return _unique([clip(plain(p)) for p in found])


def entities(doc: Document) -> list[str]:
    """Entities: keywords, tags, bold subjects, then code identifiers."""
    body = doc.digest.body
    code = " ".join(m.group(1) for m in _CODE_BLOCK.finditer(body))
    found = [*doc.digest.keywords, *doc.digest.tags]
    found += [m.group(1).strip() for m in _BOLD.finditer(_FENCE_BLOCK.sub(" ", body))]
    found += [m.group(1).strip() for m in _TICKED.finditer(_FENCE_BLOCK.sub(" ", body))]
    found += [m.group(1) + "()" for m in _CALL.finditer(code)]
    found += _proper_names(body)
    return _unique([e for e in found if not e.endswith(":")])


_NAME_WORD = lazy(r"^[A-Z][\w.+#-]*$")


def _proper_names(body: str) -> list[str]:
    """Runs of capitalised words inside sentences, not their first word ("GitHub Actions").

    These are the names prose mentions without marking them up ("PagerDuty", "ECR").
    """
    names: list[str] = []
    for sentence in sentences(body):
        run: list[str] = []
        for word in [*sentence.split()[1:], ""]:
            bare = word.strip(".,;:!?()[]{}\"'")
            if bare and _NAME_WORD.match(bare) and bare not in ("I", "A"):
                run.append(bare)
                if bare != word:  # punctuation ends the name
                    names.append(" ".join(run))
                    run = []
            elif run:
                names.append(" ".join(run))
                run = []
    return names


def _lead(doc: Document) -> str:
    if doc.digest.summary:
        return doc.digest.summary
    first = sentences(doc.digest.body)
    return first[0] if first else ""


def abstract(doc: Document, budget: int, aggressive: bool) -> str:
    """One line: title, summary, and (unless aggressive) the first key point that adds news."""
    lead = clip(_lead(doc), budget * CHARS_PER_TOKEN)
    line = f"{doc.digest.title}: {lead}" if lead else doc.digest.title
    if not aggressive:
        for point in key_points(doc):  # key points that add news, while they fit
            if point.lower() in line.lower():
                continue
            longer = f"{line.rstrip('.')}. {point}"
            if count_tokens(longer) > budget:
                break
            line = longer
    return " ".join(line.split())


def _fit_lists(head: str, lists: list[tuple[str, list[str]]], budget: int) -> str:
    def render() -> str:
        parts = [head]
        for name, items in lists:
            if items:
                parts.append(f"## {name}\n" + "\n".join(f"- {i}" for i in items))
        return "\n\n".join(parts) + "\n"

    text = render()
    # Drop the last item of the longest list until the text fits (keeps every list's head).
    while count_tokens(text) > budget:
        longest = max(lists, key=lambda pair: len(pair[1]))[1]
        if len(longest) <= 1:
            break
        longest.pop()
        text = render()
    return text


def overview(doc: Document, budget: int, aggressive: bool) -> str:
    """3-7 key points, notable entities and patterns, as markdown."""
    limit = 160 if aggressive else ITEM_CHARS
    points = key_points(doc)
    rules = patterns(doc)
    if len(points) < 3:
        points += [r for r in rules if r not in points][: 3 - len(points)]
    points = [clip(p, limit) for p in points[: 5 if aggressive else 7]]
    names = [clip(e, 60) for e in entities(doc)[: 10 if aggressive else 24]]
    rule_items = [clip(r, limit) for r in rules[: 4 if aggressive else 7]]
    head = f"# {doc.digest.title}"
    if doc.digest.summary:
        head += "\n\n" + clip(doc.digest.summary, limit)
    return _fit_lists(
        head, [("Key points", points), ("Entities", names), ("Patterns", rule_items)], budget
    )


def ghost_cue(doc: Document, budget: int, aggressive: bool) -> str:
    """The body of an archive stub: what the entry was about, in searchable words.

    The heading, the summary and the key entities, then the key points and the body's
    sentences in order while they fit: a long entry fills its budget (~220 tokens), counted
    with the one token counter, and a short one is not padded.
    """
    head = [f"# Archived: {doc.digest.title}"]
    if doc.digest.summary:
        head.append(doc.digest.summary)
    names = entities(doc)[: 6 if aggressive else 12]
    tail = ["Key entities: " + ", ".join(names) + "."] if names else []
    seen = {" ".join(p.split()) for p in head}
    pool = []
    for sentence in [*key_points(doc)[: 3 if aggressive else None],
                     *([] if aggressive else sentences(doc.digest.body))]:
        flat = " ".join(sentence.split())
        if flat and flat not in seen:
            seen.add(flat)
            pool.append(clip(flat) if flat.endswith((".", "!", "?", "…")) else clip(flat) + ".")

    def text_of(chosen: list[str]) -> str:
        return "\n\n".join([*head, *([" ".join(chosen)] if chosen else []), *tail])

    if count_tokens(text_of([])) > budget:  # the essentials alone overflow: drop the names
        tail = []
        return text_of([])
    chosen: list[str] = []
    for item in pool:
        if count_tokens(text_of([*chosen, item])) <= budget:
            chosen.append(item)
    return text_of(chosen)
