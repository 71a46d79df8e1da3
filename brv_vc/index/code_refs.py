"""Repository paths an entry names: its ``Files:`` list and the paths in its text.

Pure text work, run when the index reads a changed entry. Nothing here knows the repository:
the index keeps every candidate (``codelinks`` rows) and ``services.code_links`` resolves
them against the code repository, so a file added to the code later links without reindexing.

Measured for false links in bench/bench_code_links.py: plain words with a slash ("and/or",
"TCP/IP") are candidates too, and only resolve when the repository holds such a path.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from brv_vc.pattern import lazy

FILES = "files"  # named in a Files: list (seed 000's Raw Concept, curate's rawConcept.files)
TEXT = "text"  # named anywhere else in the body

MAX_REFS = 200  # per entry: a pasted file listing must not bloat the index
_LABEL = re.compile(r"^\s*\*\*(?P<label>[A-Za-z][A-Za-z ]*?):\*\*[ \t]*(?P<rest>.*)$")
_ITEM = re.compile(r"^\s*[-*+]\s+(?P<item>.+)$")
_TICKED = lazy(r"`([^`\n]{1,300})`")
_URL = lazy(r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", re.IGNORECASE)
# a plain path: segments of word characters, dots and dashes joined by at least one slash
_PLAIN = re.compile(r"(?<![\w/.@:~$-])(\./[\w.-]*\w|(?:\.{1,2}/|/)?(?:[\w.-]+/)+[\w.-]*[\w-])(?![\w/])")
_SEGMENTS = re.compile(r"^(?:\.{1,2}/|/)?[\w.@+-]+(?:/[\w.@+-]+)*/?$")
# the same with spaces inside a name: only for a path quoted, backticked or escaped ("\ ")
_SPACED = lazy(r"^(?:\.{1,2}/|/)?[\w.@+-](?:[\w.@+ -]*[\w.@+-])?"
               r"(?:/[\w.@+-](?:[\w.@+ -]*[\w.@+-])?)*/?$")  # spaces inside a name, never at its ends
_WHOLE = lazy(r"^([`\"'])([^`\"'\n]{1,300})\1")  # a quoted item, a note may follow
_ESCAPED = lazy(r"(?<![\w/.\\])(?:\.{0,2}/)?(?:[\w.@+-]|\\ )+(?:/(?:[\w.@+-]|\\ )+)+")
_QUOTED = lazy(r"\"([^\"\n]{1,300})\"")
_LINE_SUFFIX = re.compile(r"(?::\d+(?:[-:]\d+)?|#L\d+(?:-L?\d+)?)$")


def clean(raw: str, quoted: bool = False) -> str | None:
    """One named path as the index stores it, or None when it is not a path.

    Backticks, quotes and a ``:12`` or ``#L12`` line suffix are dropped, ``./`` and repeated
    slashes folded; ``../`` and absolute paths are kept as written (the service tells which
    lie outside the repository). A name may hold spaces only where the writer marked the
    path's ends: quoted or backticked (``quoted``: the caller took the quotes off) or each
    space escaped (a backslash before it).
    """
    text = raw.strip()
    if not quoted and ("\\ " in text or (" " in text and text.lstrip("*<>()[] ")[:1] in "`\"'")):
        probe = text.strip("*<>()[]").strip()
        whole = _WHOLE.match(probe) if probe[:1] in "`\"'" else None
        escaped = None if whole else _ESCAPED.match(probe)
        if whole and " " in whole.group(2).strip():
            text, quoted = whole.group(2), True
        elif escaped and "\\ " in escaped.group(0):
            text, quoted = escaped.group(0).replace("\\ ", " "), True
    if not quoted:
        text = text.split(" (", 1)[0].split(" - ", 1)[0].split(" — ", 1)[0].split(": ", 1)[0]
    text = text.strip().strip("`'\"<>()[]*").strip()
    text = text.rstrip(".,;:")
    if ":" in text or "#" in text:  # the suffix's fixed part: else the search tries every position
        text = _LINE_SUFFIX.sub("", text)
    if not text or "://" in text or len(text) > 300 or text in (".", "/"):
        return None
    if not (_SPACED if quoted and " " in text else _SEGMENTS).match(text):
        return None
    absolute = text.startswith("/")
    normal = posixpath.normpath(text)
    return normal if absolute or normal != "." else None


def _is_candidate(raw: str) -> bool:
    # Only a path with a folder (or an explicit "./name") counts in the text: a bare file
    # name mostly means any project's file ("add it to `pyproject.toml`"). Measured on
    # pytest's commit messages (bench/bench_code_links.py): 8 of 16 bare names that resolved
    # meant the repository's file, against every one of 143 paths with a folder.
    return "/" in raw


def files_list(body: str) -> list[str]:
    """The items of every ``**Files:**`` block (a list below the label, or ``a, b`` inline)."""
    found: list[str] = []
    inside = False
    for line in body.splitlines():
        # a label's line holds ":**" (most lines, a Facts line's "- **x**:" too, have none)
        label = _LABEL.match(line) if ":**" in line else None
        if label:
            inside = label.group("label").strip().lower() == "files"
            if inside and label.group("rest").strip():
                found.extend(label.group("rest").split(","))
            continue
        if not inside:
            continue
        if line.startswith("#"):
            inside = False
            continue
        item = _ITEM.match(line)
        if item:
            found.append(item.group("item"))
        elif line.strip():
            found.extend(line.split(","))
    return found


def extract(body: str) -> tuple[tuple[str, str], ...]:
    """``(path, how)`` of every repository path the body names, ``files`` first, unique.

    Args:
        body: the entry's markdown body (no frontmatter).

    Returns:
        Up to :data:`MAX_REFS` pairs; a path named both ways keeps ``files``.
    """
    refs: dict[str, str] = {}
    listed = files_list(body)
    for item in listed:
        path = clean(item)
        if path:
            refs.setdefault(path, FILES)
    # both patterns try every position: skipped when their fixed part is absent (same result)
    text = _URL.sub(" ", body) if "://" in body or "www." in body.lower() else body
    if "`" in text:
        for match in _TICKED.finditer(text):
            path = clean(match.group(1), quoted=True)
            if path and _is_candidate(match.group(1).strip()):
                refs.setdefault(path, TEXT)
        text = _TICKED.sub(" ", text)
    if '"' in text:  # a quoted path may hold spaces: read whole, then out of the plain scan
        for match in _QUOTED.finditer(text):
            inner = match.group(1)
            path = clean(inner, quoted=True) if " " in inner and "/" in inner else None
            if path:
                refs.setdefault(path, TEXT)
        text = _QUOTED.sub(lambda m: " " if " " in m.group(1) and "/" in m.group(1)
                           else m.group(0), text)
    if "\\ " in text:  # escaped spaces: src/with\\ space/f.py
        for match in _ESCAPED.finditer(text):
            path = clean(match.group(0)) if "\\ " in match.group(0) else None
            if path:
                refs.setdefault(path, TEXT)
        text = _ESCAPED.sub(lambda m: " " if "\\ " in m.group(0) else m.group(0), text)
    # a Files: item is also found in the text: its path is a ref already (an inline list's
    # items keep the space after their comma: clean() strips them, so may this)
    seen = {item.strip() for item in listed}
    for match in _plain_paths(text):
        if (raw := match.group(1)) in seen:
            continue
        path = clean(raw)
        if path and _is_candidate(raw):
            refs.setdefault(path, TEXT)
        if len(refs) >= MAX_REFS:
            break
    return tuple(list(refs.items())[:MAX_REFS])


def _plain_paths(text: str) -> Iterator[re.Match[str]]:
    """``_PLAIN.finditer(text)``, searched only in the whitespace-separated words with a slash.

    The same matches in the same order, at a fraction of the cost: a match holds no
    whitespace, and whitespace satisfies both of its look-arounds as a word's edge does.
    Only the lines with a slash are split (two of ~24 in a typical entry): every line break
    ``splitlines`` knows is whitespace to ``split``, so the words and their order are the same.
    """
    for line in text.splitlines():
        if "/" in line:
            for word in line.split():
                if "/" in word:
                    yield from _PLAIN.finditer(word)
