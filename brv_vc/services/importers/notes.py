"""Reading another tool's folder of markdown notes into :class:`Note` values.

Other tools' frontmatter is loose and varied (dates as dates, tags as a string or a list,
keys named ``content``), so it is read with python-frontmatter's ``parse``; brv's own
format keeps its strict reader and writer. What a note cannot give is reported, never
guessed: a file that is not UTF-8, frontmatter that is not YAML, a note over the size a
curate operation takes.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import frontmatter  # type: ignore[import-untyped, unused-ignore]

FLAVOURS = ("markdown", "basic-memory", "obsidian", "byterover")
MAX_CONTENT = 40_000  # what one curate operation's content takes (curate-ops schema)
SKIP_DIRS = {".git", ".obsidian", ".trash", ".brv", "node_modules", "_archived"}
_H1 = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)
_INLINE_TAG = re.compile(r"(?<![\w/#&])#([A-Za-z][\w/-]*)")
# [[target]], [[target#heading]], [[target|alias]], [[Folder/Note\\|alias]] (a pipe escaped
# inside a table); an embed ![[...]] is the same link
_WIKI = re.compile(r"\[\[([^\]|#\\]+)(?:#[^\]|\\]*)?(?:\\?\|[^\]]*)?\]\]")
# an attachment (image, PDF...) is no note: its link is neither kept nor unresolved
_ATTACHMENT = re.compile(r"\.(?!md$)[A-Za-z0-9]{1,5}$")
_MEMORY_URL = re.compile(r"memory://([\w./-]+)")
_FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Note:
    """One note as found: where, its title, tags, links and text."""

    source: str  # path relative to the imported folder
    title: str
    content: str
    summary: str
    tags: tuple[str, ...]
    links: tuple[str, ...]  # wiki-link targets and memory:// permalinks, as written
    permalink: str
    created: str  # ISO 8601 UTC (``...Z``) or ""
    updated: str = ""


@dataclass(frozen=True)
class Unreadable:
    """A file that could not be read as a note, and why."""

    source: str
    reason: str


def _strings(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v for v in re.split(r"[,\s]+", value) if v]
    if isinstance(value, (list, tuple)):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)]


def _date(value: Any) -> str:
    """A frontmatter date as brv's ``createdAt`` form (UTC, ``Z``); "" when it is none."""
    from brv_vc.clock import format_iso, parse_iso

    if isinstance(value, dt.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=dt.UTC)
    elif isinstance(value, dt.date):
        moment = dt.datetime(value.year, value.month, value.day, tzinfo=dt.UTC)
    elif isinstance(value, (str, int, float)) and str(value).strip():
        try:
            moment = parse_iso(str(value).strip().replace(" ", "T", 1))
        except ValueError:
            return ""
    else:
        return ""
    return format_iso(moment)


def _first(meta: dict[str, Any], *keys: str) -> str:
    return next((d for key in keys if (d := _date(meta.get(key)))), "")


def note_files(root: Path) -> tuple[list[Path], list[str]]:
    """Markdown files under ``root``, sorted, and the symbolic links left out (their paths).

    Hidden and tool folders are left out silently; a link (to a file or a folder) is never
    followed, and named, so the person knows which notes did not come in.
    """
    found: list[Path] = []
    links: list[str] = []
    for folder, dirs, files in os.walk(root):
        base = Path(folder)
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in [d for d in dirs if (base / d).is_symlink()]:  # never walked into
            links.append(shown((base / name).relative_to(root).as_posix()) + "/")
            dirs.remove(name)
        for name in sorted(files):
            path = base / name
            if not name.endswith(".md") or name.startswith("."):
                continue
            if path.is_symlink():
                links.append(shown(path.relative_to(root).as_posix()))
            else:
                found.append(path)
    return found, sorted(links)


def shown(rel: str) -> str:
    r"""A path as it can be printed: bytes that are not UTF-8 as ``\xff`` escapes."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def read_note(root: Path, path: Path, flavour: str) -> Note | Unreadable:
    """Reads one note; the reason it cannot be imported otherwise."""
    rel = path.relative_to(root).as_posix()
    if shown(rel) != rel:  # os.walk gave the name's undecodable bytes as surrogates
        return Unreadable(shown(rel), "its name is not UTF-8 text; rename it to UTF-8, or move "
                          "it out of the folder")
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return Unreadable(rel, "not a regular file")
        raw = path.read_bytes()
        if b"\x00" in raw:
            return Unreadable(rel, "a binary file, not markdown")
        text = raw.decode("utf-8-sig")
        meta, body = frontmatter.parse(text)
    except UnicodeDecodeError:
        return Unreadable(rel, "not UTF-8 text")
    except Exception as exc:  # YAML errors of every kind a loose file can hold
        return Unreadable(rel, f"frontmatter is not valid YAML ({type(exc).__name__})")
    if not isinstance(meta, dict):
        return Unreadable(rel, "frontmatter is not a mapping")
    body = body.strip("\n") + "\n"
    if len(body) > MAX_CONTENT:
        return Unreadable(rel, f"{len(body)} characters; a note takes at most {MAX_CONTENT}")
    heading = _H1.search(body)
    title = str(meta.get("title") or (heading.group(1) if heading else "") or path.stem).strip()
    if heading and heading.group(1).strip() == title:  # the title is kept in the frontmatter
        body = (body[:heading.start()] + body[heading.end():]).strip("\n") + "\n"
    tags = _strings(meta.get("tags")) + _strings(meta.get("tag"))
    scan = _FENCE.sub("", body)
    if flavour in ("obsidian", "markdown"):
        tags += _INLINE_TAG.findall(scan)
    tags = [t.lstrip("#") for t in tags]
    links = [m.strip() for m in _WIKI.findall(scan) if not _ATTACHMENT.search(m.strip())]
    links += _MEMORY_URL.findall(scan)
    links += _strings(meta.get("related"))
    return Note(
        source=rel, title=title, content=body if body.strip() else f"{title}.\n",
        summary=str(meta.get("summary") or meta.get("description") or "").strip(),
        tags=tuple(dict.fromkeys(t for t in tags if t)), links=tuple(dict.fromkeys(links)),
        permalink=str(meta.get("permalink") or "").strip(),
        created=_first(meta, "createdAt", "created", "date", "created_at"),
        updated=_first(meta, "updatedAt", "updated", "modified", "updated_at", "lastmod"),
    )
