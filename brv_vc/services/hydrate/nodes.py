"""Nodes of the context tree for hydration: a folder, its ``context.md`` and its digest.

A node's digest (seed 003 "dehydration") is a ``## Digest`` section of its ``context.md``:
knowledge, versioned with the tree, so a teammate's hydration sees it after a pull. The
rest of ``context.md`` is never rewritten (people edit it), only that one section.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass

from brv_vc.errors import FormatError, InvalidPathError, NotFoundError
from brv_vc.format import body as bodymod
from brv_vc.format import frontmatter as fm
from brv_vc.tree.layout import CONTEXT_FILE, MAX_DEPTH, clean_relpath
from brv_vc.tree.project import Project

DIGEST = "Digest"
MAX_DIGEST_CHARS = 8_000  # a digest is a compression: ~2,000 tokens at the most


@dataclass(frozen=True)
class NodeContext:
    """What a folder's ``context.md`` says: its purpose (first section) and its digest."""

    path: str  # "" for the root
    purpose: str
    digest: str


def node_path(project: Project, path: str) -> str:
    """Normalises a node (folder) path given by a user; ``""`` or ``.`` is the root.

    Raises:
        InvalidPathError: a malformed path, or one deeper than domain/topic/subtopic.
        NotFoundError: no such folder in the tree.
    """
    raw = path.strip().removeprefix(".brv/context-tree").strip("/")
    if raw in ("", "."):
        return ""
    rel = clean_relpath(raw, what="node")
    if rel.endswith(".md"):
        raise InvalidPathError(f"'{path}' is a file; hydration works on folders",
                               hint="give the folder, e.g. auth/jwt")
    if rel.count("/") + 1 > MAX_DEPTH:
        raise InvalidPathError(f"'{path}' is deeper than domain/topic/subtopic",
                               hint="give at most three names, such as auth/jwt/refresh")
    folder = project.tree / rel
    if folder.is_symlink() or not folder.is_dir():
        raise NotFoundError(f"no folder '{rel}' in the context tree",
                            hint="`brv tree` lists the domains and topics")
    return rel


def read_context(project: Project, path: str) -> NodeContext:
    """Reads a folder's ``context.md`` (empty values when there is none)."""
    file = project.tree / path / CONTEXT_FILE
    try:
        if not stat.S_ISREG(file.lstat().st_mode):
            return NodeContext(path, "", "")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return NodeContext(path, "", "")
    text = without_frontmatter(text)
    _, sections = bodymod.split_sections(text)
    purpose = next((s.text.strip() for s in sections if s.name != DIGEST and s.text.strip()), "")
    digest = next((s.text.strip() for s in sections if s.name == DIGEST), "")
    return NodeContext(path, purpose, digest)


def without_frontmatter(text: str) -> str:
    """The text after its frontmatter, split by the format's own reader.

    Text whose opening fence is never closed has no frontmatter to split: it is kept whole.
    """
    try:
        _, body = fm.split(text)
    except FormatError:
        return text
    return body.lstrip("\n")


def with_digest(text: str, digest: str) -> str:
    """Returns ``context.md`` text whose ``## Digest`` section holds ``digest`` (added last)."""
    block = f"## {DIGEST}\n{digest.strip()}\n"
    lines = text.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip() == f"## {DIGEST}"), None)
    if start is None:
        return text.rstrip("\n") + ("\n\n" if text.strip() else "") + block
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")),
               len(lines))
    tail = "".join(lines[end:])
    return "".join(lines[:start]) + block + ("\n" + tail if tail else "")


def check_digest(digest: str) -> str:
    """Validates a digest's text.

    Raises:
        FormatError: empty, too long, or holding a line that would start a new section.
    """
    text = digest.strip()
    if not text:
        raise FormatError("the digest is empty", hint="pass the node's summary with --digest")
    if len(text) > MAX_DIGEST_CHARS:
        raise FormatError(f"the digest has {len(text)} characters; the limit is "
                          f"{MAX_DIGEST_CHARS}", hint="compress it: a digest keeps decisions, "
                          "not the reasoning that led to them")
    if "\x00" in text or any(line.startswith("## ") for line in text.splitlines()):
        raise FormatError("the digest holds a '## ' heading line or a NUL byte",
                          hint="use '###' for headings inside a digest")
    return text
