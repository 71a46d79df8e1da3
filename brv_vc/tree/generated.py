"""Telling a ``context.md`` brv generated (filler) from one a person or agent wrote or edited.

When a curate creates a domain, topic or subtopic it writes the folder's ``context.md`` from
the names and the first entry (``services/curate/contexts.py``). That text is a placeholder,
not knowledge: it must never be a search hit, count as an added entry in a diff, or feed a
summary or a synthesis. Once someone edits the file, it is knowledge like any entry.

How they are told apart, exactly and the same on every clone: the generator writes a one-key
frontmatter ``generated: "brv <hash>"`` where ``<hash>`` is the first 16 hex digits of the
sha256 of the body that follows it (line endings normalised to LF, so a checkout with
``core.autocrlf`` agrees). A file is generated filler only while its bytes are exactly that
frontmatter followed by a body that still hashes to it. Any edit (a word, a digest section,
another frontmatter key) breaks the match, and the file counts as knowledge from then on.
Nothing lives in per-machine state, so clones, merges and rebases all agree, and a merge that
combines an edit with the generated text yields an edited file.

A ``context.md`` written before the marker existed has none and counts as knowledge.
"""

from __future__ import annotations

from brv_vc.digest import sha256

_HEAD = b'---\ngenerated: "brv '
_SIZE = 16


def body_hash(body: str | bytes) -> str:
    """The marker's hash of a generated body (CRLF read as LF)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    return sha256(data.replace(b"\r\n", b"\n")).hexdigest()[:_SIZE]


def mark(body: str) -> str:
    """The ``context.md`` text for a generated ``body``: the marker frontmatter, then it."""
    return f'---\ngenerated: "brv {body_hash(body)}"\n---\n\n{body}'


def is_generated(data: bytes) -> bool:
    """True when ``data`` is a generated ``context.md`` nobody has edited since."""
    data = data.replace(b"\r\n", b"\n") if b"\r\n" in data[:64] else data
    if not data.startswith(_HEAD):
        return False
    end = len(_HEAD) + _SIZE
    if data[end : end + 7] != b'"\n---\n\n':
        return False
    return body_hash(data[end + 7 :]) == data[len(_HEAD) : end].decode("ascii", "replace")
