"""Knowledge-aware 3-way merge of one entry (pure): base, ours, theirs -> merged bytes.

DESIGN.md "Knowledge-aware merges": frontmatter is merged key by key (tags, keywords and
related as sets: an addition by either side is kept, a removal by either side wins; earliest
``createdAt``; latest ``updatedAt``; other keys 3-way, a conflict when both sides changed one
differently). The body is merged section by section; conflict markers appear only inside a
section (or around a frontmatter key) that both sides changed differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from brv_vc.errors import FormatError
from brv_vc.format import frontmatter as fm
from brv_vc.format.body import split_sections
from brv_vc.format.entry import Entry, parse_entry

OURS, THEIRS = "<<<<<<< ours\n", ">>>>>>> theirs\n"
MID = "=======\n"
_MISSING = object()


@dataclass(frozen=True)
class MergeResult:
    """The merged file and the names of the keys/sections left in conflict."""

    data: bytes
    conflicts: tuple[str, ...]


def _three_way(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    if ours == theirs:
        return ours, False
    if ours == base:
        return theirs, False
    if theirs == base:
        return ours, False
    return ours, True


def _merge_list(base: tuple[str, ...], ours: tuple[str, ...], theirs: tuple[str, ...],
                has_base: bool) -> tuple[str, ...]:
    out = []
    for item in dict.fromkeys([*ours, *theirs]):
        in_both = item in ours and item in theirs
        if in_both or not has_base or item not in base:
            out.append(item)
    return tuple(out)


def _block(ours: str, theirs: str) -> str:
    def norm(text: str) -> str:
        return text if not text or text.endswith("\n") else text + "\n"

    return OURS + norm(ours) + MID + norm(theirs) + THEIRS


def _frontmatter(base: Entry | None, ours: Entry, theirs: Entry) -> tuple[str, list[str]]:
    lines: list[str] = []
    conflicts: list[str] = []

    def scalar(key: str, attr: str) -> None:
        b = getattr(base, attr) if base else _MISSING
        o, t = getattr(ours, attr), getattr(theirs, attr)
        value, clash = _three_way(b, o, t)
        if clash:
            conflicts.append(key)
            lines.append(_block(fm.dump_string(key, o), fm.dump_string(key, t)))
        else:
            lines.append(fm.dump_string(key, value))

    scalar("title", "title")
    scalar("summary", "summary")
    for key in ("tags", "keywords", "related"):
        merged = _merge_list(getattr(base, key) if base else (), getattr(ours, key),
                             getattr(theirs, key), base is not None)
        lines.append(fm.dump_list(key, merged))
    created = [x for x in (ours.created_at, theirs.created_at) if x]
    lines.append(fm.dump_string("createdAt", min(created) if created else ""))
    updated = [x for x in (ours.updated_at, theirs.updated_at) if x]
    lines.append(fm.dump_string("updatedAt", max(updated) if updated else ""))
    b_extra = dict(base.extra) if base else {}
    o_extra, t_extra = dict(ours.extra), dict(theirs.extra)
    for key in dict.fromkeys([*o_extra, *t_extra]):
        o, t = o_extra.get(key, _MISSING), t_extra.get(key, _MISSING)
        value, clash = _three_way(b_extra.get(key, _MISSING), o, t)
        if clash:
            conflicts.append(key)
            lines.append(_block("" if o is _MISSING else fm.dump_any(key, o),
                                "" if t is _MISSING else fm.dump_any(key, t)))
        elif value is not _MISSING:
            lines.append(fm.dump_any(key, value))
    return "---\n" + "".join(lines) + "---\n", conflicts


def _keyed(body: str) -> dict[str, tuple[str, str]]:
    """key -> (heading name, content without trailing blank lines).

    Trailing blank lines are layout, not content: a section that stops being the last one
    gains a blank line, which must not count as a change.
    """
    preamble, sections = split_sections(body)
    out = {"": ("", preamble.strip("\n"))}
    for section in sections:
        key, n = section.name, 2
        while key in out:
            key, n = f"{section.name}\0{n}", n + 1
        out[key] = (section.name, section.text.rstrip("\n"))
    return out


def _order(ours: list[str], theirs: list[str]) -> list[str]:
    """Ours' order, with each section only theirs has placed after its predecessor there."""
    order = list(ours)
    for index, key in enumerate(theirs):
        if key in order:
            continue
        before = next((k for k in reversed(theirs[:index]) if k in order), None)
        order.insert(order.index(before) + 1 if before is not None else 0, key)
    return order


def _body(base: str | None, ours: str, theirs: str) -> tuple[str, list[str]]:
    b = _keyed(base) if base is not None else {}
    o, t = _keyed(ours), _keyed(theirs)
    preamble = ""
    sections: list[str] = []
    conflicts: list[str] = []
    for key in _order(list(o), list(t)):
        texts = [d[key][1] if key in d else None for d in (b, o, t)]
        value, clash = _three_way(*texts)
        if base is None and (texts[1] is None or texts[2] is None):
            value, clash = texts[1] if texts[2] is None else texts[2], False
        name = next(d[key][0] for d in (o, t, b) if key in d)
        if clash:
            conflicts.append(name or "(preamble)")
            value = _block(texts[1] or "", texts[2] or "").rstrip("\n")
        if value is None:
            continue
        if key:
            sections.append(f"## {name}\n" + (value + "\n" if value else ""))
        else:
            preamble = value
    if not sections:
        return (preamble + "\n" if preamble else ""), conflicts
    head = "\n" + (preamble + "\n\n" if preamble else "")
    return head + "\n".join(sections), conflicts


def merge_entries(base: bytes | None, ours: bytes, theirs: bytes, *, path: str = "") -> MergeResult:
    """Merges three versions of a knowledge file.

    Args:
        base: the common ancestor (None or empty when both sides added the file).
        ours: our version (git's ``%A``).
        theirs: their version (git's ``%B``).
        path: the file's path, for error messages.

    Returns:
        The merged bytes and the conflicted keys/sections (empty when clean).

    Raises:
        FormatError: a version does not parse; the caller falls back to a line merge.
    """
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    for data in (base, ours, theirs):
        if data and not data.lstrip(b"\xef\xbb\xbf").startswith(b"---"):
            # Trigger: a plain markdown file. Why: merging would add a frontmatter nobody
            # wrote. Outcome: the caller falls back to git's line merge.
            raise FormatError("no frontmatter", file=path)
    parsed_base = parse_entry(base, file=path, stem=stem) if base else None
    parsed_ours = parse_entry(ours, file=path, stem=stem)
    parsed_theirs = parse_entry(theirs, file=path, stem=stem)
    head, fm_conflicts = _frontmatter(parsed_base, parsed_ours, parsed_theirs)
    body, body_conflicts = _body(
        parsed_base.body if parsed_base else None, parsed_ours.body, parsed_theirs.body
    )
    return MergeResult((head + body).encode("utf-8"), tuple(fm_conflicts + body_conflicts))
