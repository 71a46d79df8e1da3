"""Rendering semantic diffs as terminal text and as GitHub markdown (a pull-request comment)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from brv_vc.vc.semdiff import EntryDiff, FieldChange

_ORDER = ("added", "modified", "renamed", "removed")
CONTENT_LINES = 60  # lines of an added/removed entry shown in a PR comment, all sections
SECTION_LINES = 25  # of those, at most this many per section
_OBJECT_ID = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")  # a full SHA-1 or SHA-256 commit id
SHORT_ID = 9  # characters of a commit id a comment shows (as 'brv about' and 'brv stale')


def _ref(name: str) -> str:
    """A revision as a comment names it: a full commit id shortened, a branch or tag as is."""
    return name[:SHORT_ID] if _OBJECT_ID.fullmatch(name) else name


def _value(value: Any) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, default=str)


def _field(change: FieldChange, code: str = "", arrow: str = "->") -> str:
    if change.added or change.removed:
        parts = [f"+{code}{x}{code}" for x in change.added]
        parts += [f"-{code}{x}{code}" for x in change.removed]
        return " ".join(parts)
    old = "(none)" if change.old is None else _value(change.old)
    new = "(none)" if change.new is None else _value(change.new)
    return f"{code}{old}{code} {arrow} {code}{new}{code}"


def _headline(entry: EntryDiff) -> str:
    where = f"{entry.old_path} -> {entry.path}" if entry.status == "renamed" else entry.path
    title = f'  "{entry.title}"' if entry.title else ""
    return f"{entry.status:<9} {where}{title}"


def render_text(entries: Sequence[EntryDiff], base: str, target: str) -> str:
    """Terminal text: one headline per entry, then its field, section and relation changes."""
    if not entries:
        return f"No knowledge changes between {base} and {target}."
    lines = [f"Knowledge changes ({base} -> {target}):"]
    for entry in entries:
        lines.append(_headline(entry))
        if entry.summary:
            lines.append(f"    summary: {' '.join(entry.summary.split())}")
        for change in entry.fields:
            lines.append(f"    {change.key}: {_field(change)}")
        for section in entry.sections:
            lines.append(f"    section '{section.name}' {section.change}")
            if section.change == "changed":
                lines.extend(f"      {line}" for line in section.lines)
        for rel in entry.relations_added:
            lines.append(f"    relation +@{rel}")
        for rel in entry.relations_removed:
            lines.append(f"    relation -@{rel}")
        if entry.note:
            lines.append(f"    ({entry.note})")
            lines.extend(f"      {line}" for line in entry.lines)
    lines.append(_summary(entries))
    return "\n".join(lines)


def _summary(entries: Sequence[EntryDiff]) -> str:
    """``2 entries changed: 1 added, 1 modified``; files that are no knowledge apart."""
    knowledge = [e for e in entries if e.path.endswith(".md")]
    others = len(entries) - len(knowledge)
    counts = {s: sum(1 for e in knowledge if e.status == s) for s in _ORDER}
    parts = [f"{n} {s}" for s, n in counts.items() if n]
    noun = "entry" if len(knowledge) == 1 else "entries"
    text = f"{len(knowledge)} {noun} changed" + (": " + ", ".join(parts) if parts else "")
    if others:
        text += f"; {others} other file{'s' if others != 1 else ''} (not knowledge)"
    return text


def _cell(text: str) -> str:
    """Text safe inside a markdown table cell: a pipe would split the cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _html(text: str) -> str:
    """Free text (a title) escaped for a PR comment: '<details>' must not open a tag."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _what(entry: EntryDiff) -> str:
    bits = []
    if entry.fields:
        bits.append("fields: " + ", ".join(f"`{c.key}`" for c in entry.fields))
    changed = [s.name for s in entry.sections if s.change == "changed"]
    added = [s.name for s in entry.sections if s.change == "added"]
    removed = [s.name for s in entry.sections if s.change == "removed"]
    if entry.status in ("added", "removed"):
        names = [s.name for s in entry.sections]
        bits.append(f"{len(names)} section{'s' if len(names) != 1 else ''}")
    else:
        for label, names in (("changed", changed), ("added", added), ("removed", removed)):
            if names:
                bits.append(f"{label} " + ", ".join(f"*{n}*" for n in names))
    rels = len(entry.relations_added) + len(entry.relations_removed)
    if rels:
        bits.append(f"{rels} relation change{'s' if rels != 1 else ''}")
    if entry.note:
        bits.append(entry.note)
    return "; ".join(bits) or "-"


def render_markdown(entries: Sequence[EntryDiff], base: str, target: str,
                    code: tuple[Sequence[Any], Sequence[Any]] = ((), ())) -> str:
    """GitHub markdown, ready to post as a pull-request comment.

    A heading, a summary table and one collapsible ``<details>`` block per entry; then,
    when the change touches code that knowledge describes, the section of
    :func:`code_section` (``code``: the stale and the updated links of
    ``services.vc.code_notes``).
    """
    lines = ["## Knowledge changes", ""]
    section = code_section(*code)
    base, target = _ref(base), _ref(target)  # the Action passes two 40-character ids
    if not entries:
        return "\n".join([*lines, f"No knowledge changes between `{base}` and `{target}`.",
                          *section]) + ("\n" if section else "")
    lines += [f"{_summary(entries)} (`{base}` → `{target}`).", "",
              "| Change | Entry | Title | What changed |", "| --- | --- | --- | --- |"]
    for entry in entries:
        path = f"`{entry.old_path}` → `{entry.path}`" if entry.status == "renamed" else (
            f"`{entry.path}`")
        title = _cell(_html(entry.title))
        lines.append(f"| {entry.status} | {path} | {title} | {_cell(_what(entry))} |")
    for entry in entries:
        detail = _details(entry)
        if detail:
            lines += ["", f"<details><summary><code>{entry.path}</code> ({entry.status})"
                          "</summary>", "", *detail, "", "</details>"]
    return "\n".join([*lines, *section]) + "\n"


CODE_ROWS = 50  # rows of each code-knowledge table before "... more"


def code_section(stale: Sequence[Any], updated: Sequence[Any]) -> list[str]:
    """"Knowledge about the code this change touches": [] when the change touches none.

    Each link has ``path``, ``change`` (git's letter), ``entries`` and ``renamed_to``.
    """
    if not stale and not updated:
        return []
    lines = ["", "### Knowledge about the code this change touches", ""]
    for links, heading in (
            (stale, "**Made stale by this change**: the code changed, these entries did not; "
                    "re-read them and update what no longer holds."),
            (updated, "**Updated with the code**: re-read them against the new code.")):
        if not links:
            continue
        lines += [heading, "", "| Entry | Code | Change |", "| --- | --- | --- |"]
        rows = [(entry, link) for link in links for entry in link.entries]
        for entry, link in rows[:CODE_ROWS]:
            change = (f"renamed to `{_cell(link.renamed_to)}`" if link.renamed_to else
                      {"A": "added", "D": "deleted"}.get(link.change, "changed"))
            lines.append(f"| `{_cell(entry)}` | `{_cell(link.path)}` | {change} |")
        if len(rows) > CODE_ROWS:
            lines.append(f"| … {len(rows) - CODE_ROWS} more | | |")
        lines.append("")
    lines.append("`brv about PATH` shows what the tree knows about a file; `brv stale` lists "
                 "all stale knowledge.")
    return lines


def _fence(lines: Sequence[str], mark: str) -> list[str]:
    """A ``diff`` code block of ``lines``, each prefixed with ``mark``.

    The fence outlasts any backtick run inside, so knowledge holding code blocks cannot
    close it early.
    """
    longest = max((len(run) for line in lines for run in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{fence}diff", *(f"{mark} {line}".rstrip() for line in lines), fence]


def _content(entry: EntryDiff) -> list[str]:
    """An added entry's knowledge, or what a removed one loses.

    The summary, then each section folded, cut at :data:`CONTENT_LINES` lines in all (and
    :data:`SECTION_LINES` a section) with a count of what was cut.
    """
    added = entry.status == "added"
    out = ["**New knowledge**" if added else "**Knowledge removed**", ""]
    if entry.summary:
        out += [f"> {_html(' '.join(entry.summary.split()))}", ""]
    budget, cut_sections, cut_lines = CONTENT_LINES, 0, 0
    for section in entry.sections:
        lines = list(section.lines)
        if budget <= 0:
            cut_sections += 1
            cut_lines += len(lines)
            continue
        shown = lines[: min(budget, SECTION_LINES)]
        budget -= len(shown)
        noun = "line" if len(lines) == 1 else "lines"
        out += [f"<details><summary>{_html(section.name)} ({len(lines)} {noun})</summary>", "",
                *_fence(shown, "+" if added else "-")]
        if len(shown) < len(lines):
            out.append(f"*… {len(lines) - len(shown)} more lines cut*")
        out += ["", "</details>"]
    if cut_sections:
        out += ["", f"*… {cut_sections} more section{'s' if cut_sections != 1 else ''} "
                    f"({cut_lines} lines) cut; see the file in the pull request*"]
    return [*out, ""]


def _details(entry: EntryDiff) -> list[str]:
    out: list[str] = []
    if entry.status in ("added", "removed") and not entry.note:
        out += _content(entry)
    if entry.fields:
        out += ["**Frontmatter**", ""]
        out += [f"- `{c.key}`: {_field(c, '`', '→')}" for c in entry.fields]
        out.append("")
    sections = [s for s in entry.sections if entry.status not in ("added", "removed")]
    if sections:
        out += ["**Sections**", ""]
        for section in sections:
            out.append(f"- *{section.name}* {section.change}")
        for section in sections:
            if section.lines:
                out += ["", f"*{section.name}*:", "", "```diff", *section.lines, "```"]
        out.append("")
    if entry.relations_added or entry.relations_removed:
        out += ["**Relations**", ""]
        out += [f"- added `@{r}`" for r in entry.relations_added]
        out += [f"- removed `@{r}`" for r in entry.relations_removed]
    if entry.lines:
        out += ["```diff", *entry.lines, "```"]
    return out
