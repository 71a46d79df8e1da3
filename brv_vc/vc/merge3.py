"""Knowledge-aware 3-way merge of one entry (pure): base, ours, theirs -> merged bytes.

DESIGN.md "Knowledge-aware merges": frontmatter is merged key by key (tags, keywords and
related as sets: an addition by either side is kept, a removal by either side wins; earliest
``createdAt``; latest ``updatedAt``; other keys 3-way, a conflict when both sides changed one
differently). The body is merged section by section; conflict markers appear only inside a
section (or around a frontmatter key) that both sides changed differently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from brv_vc.errors import FormatError
from brv_vc.format import frontmatter as fm
from brv_vc.format.body import split_sections
from brv_vc.format.conflicts import END, MIDDLE, START
from brv_vc.format.entry import decode, parse_entry

OURS, MID, THEIRS = f"{START} ours\n", f"{MIDDLE}\n", f"{END} theirs\n"
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


_TOP_KEY = re.compile(r"""^(?:"([^"]+)"|'([^']+)'|([^\s#\-][^:]*?)):(?:\s|$)""")
_SETS = ("tags", "keywords", "related")


def _chunks(source: str) -> dict[str, str]:
    """Frontmatter source -> {top-level key: its lines, verbatim} in source order.

    Comment and blank lines before the first key are kept under ``""``; continuation
    lines (indented values, list items, comments) stay with the key above them.
    """
    out: dict[str, str] = {}
    key = ""
    for line in source.splitlines(keepends=True):
        match = _TOP_KEY.match(line)
        if match:
            key = next(g for g in match.groups() if g is not None).strip()
        out[key] = out.get(key, "") + line
    return out


def _value(key: str, chunk: str | None, path: str) -> Any:
    """The parsed value of one chunk (_MISSING when absent), for comparisons."""
    if chunk is None:
        return _MISSING
    if not key:
        return chunk
    fields = fm.load(chunk, file=path)
    return fields[0].value if fields else None


def _merge_key(key: str, b: str | None, o: str | None, t: str | None,
               path: str) -> tuple[str | None, bool]:
    """One key's merged text (None: removed) and whether it is a conflict.

    Values are compared parsed (a reflow or re-quote is no change) and the text of the side
    taken is kept verbatim; only the set-merged keys are re-dumped.
    """
    vb, vo, vt = (_value(key, c, path) for c in (b, o, t))
    if vo == vt:
        return o, False
    if key in _SETS and isinstance(vo, list) and isinstance(vt, list):
        base = vb if isinstance(vb, list) else []
        merged = _merge_list(tuple(map(str, base)), tuple(map(str, vo)), tuple(map(str, vt)),
                             vb is not _MISSING)
        return fm.dump_list(key, merged), False
    if key in ("createdAt", "updatedAt") and isinstance(vo, str) and isinstance(vt, str):
        pick_ours = (vo <= vt) if key == "createdAt" else (vo >= vt)
        return (o if pick_ours else t), False
    if vo == vb:
        return t, False
    if vt == vb:
        return o, False
    return _block(o or "", t or ""), True


def _frontmatter(base: str | None, ours: str, theirs: str, path: str) -> tuple[str, list[str]]:
    """Merges frontmatter source texts; a side's text is kept byte for byte when possible.

    Keys no side removed are kept (unknown and legacy keys included) and no key is added
    that no side has.
    """
    if ours == theirs or theirs == base:
        return ours, []
    if ours == base:
        return theirs, []
    b = _chunks(base) if base is not None else {}
    o, t = _chunks(ours), _chunks(theirs)
    parts: list[str] = []
    conflicts: list[str] = []
    for key in _order(list(o), list(t)):
        text, clash = _merge_key(key, b.get(key), o.get(key), t.get(key), path)
        if base is None and (key not in o or key not in t):
            text, clash = o.get(key, t.get(key)), False
        if clash:
            conflicts.append(key or "(comments)")
        if text:
            parts.append(text if text.endswith("\n") else text + "\n")
    return "".join(parts), conflicts


def _keyed(body: str) -> dict[str, tuple[str, str]]:
    """Sections by key: (heading name, content without trailing blank lines).

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


def _split(data: bytes, path: str) -> tuple[str, str]:
    """(frontmatter source, body) of a file, LF line endings, no BOM."""
    text = decode(data, file=path).replace("\r\n", "\n")
    source, body = fm.split(text, file=path)
    if source is None:
        raise FormatError("no frontmatter", file=path)
    return source, body


def merge_entries(base: bytes | None, ours: bytes, theirs: bytes, *, path: str = "") -> MergeResult:
    """Merges three versions of a knowledge file, changing as little as possible.

    A frontmatter both sides left alike (or only one side changed) is kept byte for byte;
    otherwise it is merged key by key. The body is merged section by section only when both
    sides changed it. CRLF line endings are kept when both sides use them.

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
        if data:
            parse_entry(data, file=path, stem=stem)  # malformed: line merge instead
    if ours == theirs or theirs == base:
        return MergeResult(ours, ())
    if ours == base:
        return MergeResult(theirs, ())
    b = _split(base, path) if base else None
    o, t = _split(ours, path), _split(theirs, path)
    head, fm_conflicts = _frontmatter(b[0] if b else None, o[0], t[0], path)
    body_conflicts: list[str]
    if o[1] == t[1] or (b is not None and t[1] == b[1]):
        body, body_conflicts = o[1], []
    elif b is not None and o[1] == b[1]:
        body, body_conflicts = t[1], []
    else:
        body, body_conflicts = _body(b[1] if b else None, o[1], t[1])
    text = "---\n" + head + "---\n" + body
    if b"\r\n" in ours and b"\r\n" in theirs:
        text = text.replace("\n", "\r\n")
    bom = b"\xef\xbb\xbf" if ours.startswith(b"\xef\xbb\xbf") else b""
    return MergeResult(bom + text.encode("utf-8"), tuple(fm_conflicts + body_conflicts))
