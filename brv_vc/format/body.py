"""The markdown body of an entry: ``## `` sections, facts and ``@`` relations.

A body splits into a preamble and sections at ``## `` heading lines outside fenced code.
Joining the parts gives back the exact text, so tools can rewrite one section and leave every
other byte alone (the merge driver and MERGE depend on this).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple

RAW_CONCEPT = "Raw Concept"
NARRATIVE = "Narrative"
FACTS = "Facts"
RELATIONS = "Relations"
SECTION_ORDER = (RAW_CONCEPT, NARRATIVE, FACTS, RELATIONS)

FACT_CATEGORIES = ("personal", "project", "preference", "convention", "team", "environment", "other")

_FACT_RE = lazy(
    r"^\s*[-*]\s+(?:\*\*(?P<subject>[^*]+?)\*\*\s*:\s*)?(?P<statement>.*?)"
    r"(?:\s*\[(?P<category>" + "|".join(FACT_CATEGORIES) + r")\])?\s*$"
)
_RELATION_RE = lazy(r"^\s*(?:[-*]\s+)?@(?P<path>[^\s@]+)")
_FENCE_RE = re.compile(r"^\s{0,3}(```|~~~)")
# str.splitlines's line breaks besides "\n": a body holding one is split line by line
_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


class Section(NamedTuple):
    """A ``## name`` section: ``text`` is everything after the heading line, verbatim."""

    name: str
    text: str

    def render(self) -> str:
        """Returns the section as it stands in the file."""
        return f"## {self.name}\n{self.text}"


class Fact(NamedTuple):
    """A fact line: ``- **subject**: statement [category]`` (subject and category optional)."""

    statement: str
    subject: str | None = None
    category: str | None = None

    def render(self) -> str:
        """Returns the fact as one markdown list line (no newline)."""
        head = f"**{self.subject}**: " if self.subject else ""
        tail = f" [{self.category}]" if self.category else ""
        return f"- {head}{self.statement}{tail}"

    def key(self) -> tuple[str, str]:
        """The identity used to de-duplicate facts (case and spacing folded)."""
        return _fold(self.subject), _fold(self.statement)


def _fold(text: str | None) -> str:
    return " ".join((text or "").lower().split())


def split_sections(body: str) -> tuple[str, list[Section]]:
    """Splits a body into (preamble, sections); ``join_sections`` inverts it exactly."""
    if "```" in body or "~~~" in body or any(c in body for c in _OTHER_BREAKS):
        return _split_lines(body)
    # No fence and "\n" the only line break (most bodies): the heading lines are found with
    # str.find, the same split as line by line at a third of the cost (the index reads every
    # changed entry's relations this way).
    starts = [0] if body.startswith("## ") else []
    at = body.find("\n## ")
    while at >= 0:
        starts.append(at + 1)
        at = body.find("\n## ", at + 1)
    sections = []
    for number, start in enumerate(starts):
        eol = body.find("\n", start)
        text_at = len(body) if eol < 0 else eol + 1
        end = starts[number + 1] if number + 1 < len(starts) else len(body)
        sections.append(Section(body[start + 3 : text_at].rstrip("\r\n").strip(), body[text_at:end]))
    return body[: starts[0]] if starts else body, sections


def _split_lines(body: str) -> tuple[str, list[Section]]:
    """:func:`split_sections` line by line, following fences (``str.splitlines``'s line breaks)."""
    preamble: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    in_fence = False
    for line in body.splitlines(keepends=True):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        if not in_fence and line.startswith("## "):
            sections.append((line[3:].rstrip("\r\n").strip(), []))
            continue
        (sections[-1][1] if sections else preamble).append(line)
    return "".join(preamble), [Section(name, "".join(lines)) for name, lines in sections]


def join_sections(preamble: str, sections: Iterable[Section]) -> str:
    """Joins a preamble and sections back into a body."""
    return preamble + "".join(section.render() for section in sections)


def section_text(body: str, name: str) -> str:
    """Returns the text of every section called ``name`` (case-insensitive), joined, or ''.

    A body can hold a section twice (a hand edit, two entries' bodies joined): the relations
    and facts of the second count as much as those of the first.
    """
    wanted = name.lower()
    return "".join(s.text for s in split_sections(body)[1] if s.name.lower() == wanted)


def parse_facts(text: str) -> list[Fact]:
    """Parses the list lines of a Facts section."""
    facts = []
    for line in text.splitlines():
        match = _FACT_RE.match(line)
        if match and match.group("statement").strip():
            facts.append(
                Fact(
                    statement=match.group("statement").strip(),
                    subject=(match.group("subject") or "").strip() or None,
                    category=match.group("category"),
                )
            )
    return facts


def parse_relation_lines(text: str) -> list[str]:
    """Returns the ``@domain/topic/entry.md`` targets of a Relations section, in order."""
    return [m.group("path") for line in text.splitlines() if (m := _RELATION_RE.match(line))]


def build_body(sections: Iterable[tuple[str, str]]) -> str:
    """Builds a canonical body from (name, content) pairs, skipping empty sections.

    Canonical form: a blank line after the frontmatter, sections separated by one blank line,
    one trailing newline.
    """
    parts = [f"## {name}\n{content.strip(chr(10))}" for name, content in sections if content.strip()]
    return "\n" + "\n\n".join(parts) + "\n" if parts else ""


def canonical_section_order(names: Iterable[str]) -> list[str]:
    """Orders section names: the seed's four first (in seed order), then the others as given."""
    names = list(dict.fromkeys(names))
    known = [n for n in SECTION_ORDER if n in names]
    return known + [n for n in names if n not in SECTION_ORDER]
