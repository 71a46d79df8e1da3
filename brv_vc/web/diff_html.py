"""A semantic diff (``vc.semdiff.EntryDiff``) as HTML: the ``brv vc diff`` view for a person.

Used by an entry's history, the review queue and the changes page, so a change reads the
same everywhere. Every value is escaped (``web.html``); diff lines keep their +/- colour.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from brv_vc.tree.layout import Kind, kind_of
from brv_vc.vc.semdiff import EntryDiff, FieldChange
from brv_vc.web.html import Markup, entry_href, join, link, tag

SECTION_LINES = 60  # lines of one section shown; the rest is counted


def _value(value: Any) -> str:
    if value is None:
        return "(none)"
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _field(change: FieldChange) -> Markup:
    if change.added or change.removed:
        items = [tag("ins", "+", x) for x in change.added] + [tag("del", "-", x)
                                                              for x in change.removed]
        return tag("li", tag("b", change.key), ": ", join(items, " "))
    return tag("li", tag("b", change.key), ": ", tag("del", _value(change.old)), " → ",
               tag("ins", _value(change.new)))


def _lines(lines: Sequence[str], whole: str | None = None) -> Markup:
    """Diff lines (``+``/``-`` coloured), or a whole added/removed text (``whole``).

    Each line is its own block (``ui.css``), with no newline between: a coloured line was
    a block followed by the newline, which showed a blank line after every line.
    """
    shown = list(lines[:SECTION_LINES])
    rows = []
    for line in shown:
        kind = whole or ("add" if line.startswith("+") and not line.startswith("+++") else
                         "del" if line.startswith("-") and not line.startswith("---") else "")
        rows.append(tag("span", line, class_=kind or None))
    more = len(lines) - len(shown)
    if more > 0:
        rows.append(tag("span", f"… {more} more line(s)", class_="hint"))
    return tag("pre", join(rows))


def render_diff(entry: EntryDiff, *, linked: bool = True) -> Markup:
    """One file's change: status, path (linked to its page), title, then what changed."""
    where = (f"{entry.old_path} → {entry.path}" if entry.status == "renamed" and entry.old_path
             else entry.path)
    name = link(entry_href(entry.path), where) if linked and entry.status != "removed" else where
    head = tag("div", tag("span", entry.status, class_=f"badge st-{entry.status}"), " ",
               tag("code", name), " ", tag("strong", entry.title) if entry.title else "")
    parts: list[object] = [head]
    if entry.summary:
        parts.append(tag("p", "summary: ", entry.summary, class_="hint"))
    items = [_field(f) for f in entry.fields]
    items += [tag("li", "relation ", tag("ins", "+@", r)) for r in entry.relations_added]
    items += [tag("li", "relation ", tag("del", "-@", r)) for r in entry.relations_removed]
    if items:
        parts.append(tag("ul", join(items)))
    whole = {"added": "add", "removed": "del"}
    for section in entry.sections:
        parts.append(tag("div", "section ", tag("b", section.name), " ", section.change))
        if section.lines:
            parts.append(_lines(section.lines, whole.get(section.change)
                                if entry.status in whole else None))
    if entry.note:
        parts.append(tag("p", f"({entry.note})", class_="hint"))
        if entry.lines:
            parts.append(_lines(entry.lines))
    return tag("div", join(parts), class_="diff")


def render_diffs(entries: Sequence[EntryDiff], empty: str) -> Markup:
    """Several files' changes, or ``empty`` when there are none.

    Knowledge entries first; the folder files brv writes itself (``context.md`` and the
    like) folded under one line after them: a deletion's own text used to sit below two
    screens of regenerated folder summaries.
    """
    if not entries:
        return tag("p", empty, class_="hint")
    knowledge = [e for e in entries if kind_of(e.path) is Kind.ENTRY]
    folders = [e for e in entries if kind_of(e.path) is not Kind.ENTRY]
    parts = [render_diff(e) for e in knowledge]
    if folders:
        noun = "file" if len(folders) == 1 else "files"
        parts.append(tag("details", tag("summary", f"{len(folders)} folder {noun} "
                                        "(context.md and the like) changed with it"),
                         join(render_diff(e) for e in folders), class_="folded"))
    return join(parts)
