"""Semantic diff of one knowledge file: old bytes, new bytes -> :class:`EntryDiff` (pure).

Frontmatter is compared as parsed values, so key order and flow/block reflow are no change;
list fields (tags, keywords, related) are sets (a reorder is no change). The body is compared
section by section (``## `` headings), with a short line diff inside changed sections.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from brv_vc.errors import FormatError
from brv_vc.format.body import split_sections
from brv_vc.format.entry import Entry, parse_entry

MAX_LINES = 12  # lines of line diff shown per changed section; PR comments stay readable
PREAMBLE = "(preamble)"
_SCALARS = (("title", "title"), ("summary", "summary"), ("createdAt", "created_at"),
            ("updatedAt", "updated_at"))
_LISTS = (("tags", "tags"), ("keywords", "keywords"), ("related", "related"))


@dataclass(frozen=True)
class FieldChange:
    """One frontmatter key that changed; lists report items ``added``/``removed``."""

    key: str
    old: Any = None
    new: Any = None
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()


@dataclass(frozen=True)
class SectionChange:
    """One ``## `` section added, removed or changed, with a short unified line diff."""

    name: str
    change: str
    lines: tuple[str, ...] = ()


@dataclass(frozen=True)
class EntryDiff:
    """What changed in one file."""

    path: str
    status: str  # added | removed | modified | renamed
    old_path: str | None = None
    title: str = ""
    fields: tuple[FieldChange, ...] = ()
    sections: tuple[SectionChange, ...] = ()
    relations_added: tuple[str, ...] = ()
    relations_removed: tuple[str, ...] = ()
    note: str | None = None  # why the diff is textual (not a knowledge file, unparseable...)
    lines: tuple[str, ...] = ()
    summary: str = ""  # of an added or removed entry (its sections carry their full text)

    @property
    def empty(self) -> bool:
        """True when nothing meaningful changed (e.g. only a frontmatter reflow)."""
        return self.status == "modified" and not (
            self.fields or self.sections or self.relations_added or self.relations_removed
            or self.lines
        )


def _parse(data: bytes, path: str) -> Entry:
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    return parse_entry(data, file=path, stem=stem)


def _line_diff(old: str, new: str, limit: int = MAX_LINES) -> tuple[str, ...]:
    lines = [
        line.rstrip("\n")
        for line in difflib.unified_diff(old.splitlines(), new.splitlines(), n=1, lineterm="")
        if not line.startswith(("---", "+++"))
    ]
    if len(lines) > limit:
        lines = [*lines[:limit], f"... ({len(lines) - limit} more lines)"]
    return tuple(lines)


def _fields(old: Entry, new: Entry) -> list[FieldChange]:
    changes = []
    for key, attr in _SCALARS:
        if getattr(old, attr) != getattr(new, attr):
            changes.append(FieldChange(key, getattr(old, attr), getattr(new, attr)))
    for key, attr in _LISTS:
        before, after = getattr(old, attr), getattr(new, attr)
        if set(before) != set(after):
            changes.append(FieldChange(
                key, list(before), list(after),
                added=tuple(x for x in after if x not in before),
                removed=tuple(x for x in before if x not in after),
            ))
    old_extra, new_extra = dict(old.extra), dict(new.extra)
    for key in [*old_extra, *(k for k in new_extra if k not in old_extra)]:
        if old_extra.get(key) != new_extra.get(key):
            changes.append(FieldChange(key, old_extra.get(key), new_extra.get(key)))
    return changes


def _whole_list(key: str, values: tuple[str, ...], added: bool) -> FieldChange:
    """A list field of an added (or removed) entry, every item added (or removed)."""
    if added:
        return FieldChange(key, [], list(values), added=tuple(values))
    return FieldChange(key, list(values), [], removed=tuple(values))


def _whole_sections(body: str, status: str) -> tuple[SectionChange, ...]:
    """The sections of an added or removed entry, each with its full text as ``lines``.

    Reviewers read new knowledge (and what a deletion loses) in the diff itself; renderers
    cut it to their own budgets.
    """
    preamble, sections = split_sections(body)
    items = [(PREAMBLE, preamble)] if preamble.strip() else []
    items += [(section.name, section.text) for section in sections]
    return tuple(SectionChange(name, status, tuple(text.strip("\n").splitlines()))
                 for name, text in items)


def _sections(old_body: str, new_body: str) -> list[SectionChange]:
    def keyed(body: str) -> dict[str, str]:
        preamble, sections = split_sections(body)
        out = {PREAMBLE: preamble} if preamble.strip() else {}
        for section in sections:
            name, n = section.name, 2
            while name in out:  # a repeated heading keeps its own identity
                name, n = f"{section.name} ({n})", n + 1
            out[name] = section.text
        return out

    before, after = keyed(old_body), keyed(new_body)
    changes = []
    for name in [*before, *(n for n in after if n not in before)]:
        if name not in after:
            changes.append(SectionChange(name, "removed"))
        elif name not in before:
            changes.append(SectionChange(name, "added", _line_diff("", after[name].strip(), 6)))
        elif before[name].strip() != after[name].strip():
            # trailing blank lines are layout (a section that stops being last gains one)
            changes.append(SectionChange(
                name, "changed", _line_diff(before[name].strip("\n"), after[name].strip("\n"))))
    return changes


def diff_entry(
    path: str, old: bytes | None, new: bytes | None, *, old_path: str | None = None
) -> EntryDiff:
    """Compares two versions of a knowledge file.

    Args:
        path: the tree-relative path (of the new version).
        old: the old bytes, None when the file was added.
        new: the new bytes, None when the file was removed.
        old_path: the previous path of a renamed file.

    Returns:
        The diff; a file that is not markdown, or does not parse, gets a plain line diff and a
        ``note`` saying why.
    """
    status = "added" if old is None else "removed" if new is None else (
        "renamed" if old_path and old_path != path else "modified")
    if not path.endswith(".md"):
        return EntryDiff(path, status, old_path, note="not a knowledge file",
                         lines=_text_diff(old, new))
    try:
        before = _parse(old, old_path or path) if old is not None else None
        after = _parse(new, path) if new is not None else None
    except FormatError as exc:
        return EntryDiff(path, status, old_path, note=f"does not parse: {exc.message}",
                         lines=_text_diff(old, new))
    present = after or before
    title = present.title if present is not None else ""
    if before is None or after is None:
        assert present is not None
        # everything the entry holds is in the diff: a reviewer reads its tags and links too
        lists = tuple(_whole_list(key, getattr(present, attr), after is not None)
                      for key, attr in _LISTS if getattr(present, attr))
        relations = present.relations()
        return EntryDiff(path, status, old_path, title=title, summary=present.summary,
                         fields=lists, sections=_whole_sections(present.body, status),
                         relations_added=relations if after is not None else (),
                         relations_removed=relations if after is None else ())
    rel_before, rel_after = before.relations(), after.relations()
    return EntryDiff(
        path, status, old_path, title=title,
        fields=tuple(_fields(before, after)),
        sections=tuple(_sections(before.body, after.body)),
        relations_added=tuple(r for r in rel_after if r not in rel_before),
        relations_removed=tuple(r for r in rel_before if r not in rel_after),
    )


def _text_diff(old: bytes | None, new: bytes | None) -> tuple[str, ...]:
    return _line_diff((old or b"").decode("utf-8", "replace"),
                      (new or b"").decode("utf-8", "replace"))
