"""brv's generated ``context.md``: its text, and telling it from one a person edited.

When a curate creates a domain, topic or subtopic it writes the folder's ``context.md`` with
seed 000's sections (:func:`context_text`). The text depends on the folder's path alone, never
on the entry that created it: two clones that each create the same folder write the same bytes,
so git's add/add of identical content is clean with or without brv's merge driver (a forge's
merge button runs none). It is a placeholder, not knowledge: it must never be a search hit,
count as an added entry in a diff, or feed a summary or a synthesis. Once someone edits the
file, it is knowledge like any entry.

How they are told apart, exactly and the same on every clone: the generator writes a one-key
frontmatter ``generated: "brv <hash>"`` where ``<hash>`` is the first 16 hex digits of the
sha256 of the body that follows it (line endings normalised to LF, so a checkout with
``core.autocrlf`` agrees). A file is generated filler only while its bytes are exactly that
frontmatter followed by a body that still hashes to it. Any edit (a word, a digest section,
another frontmatter key) breaks the match, and the file counts as knowledge from then on.
Nothing lives in per-machine state, so clones, merges and rebases all agree, and a merge that
combines an edit with the generated text yields an edited file.

A ``context.md`` written before the marker existed has none and counts as knowledge. One
written by an older brv holds text drawn from the folder's first entry (still marked, so still
filler); :func:`merged` settles two of those, or one and a person's file, without a conflict.
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


def _words(name: str) -> str:
    return name.replace("_", " ").replace("-", " ").strip()


def _body(segments: list[str]) -> str:
    """The generated body of the folder ``segments`` (domain[/topic[/subtopic]])."""
    folder, name = "/".join(segments), segments[-1]
    if len(segments) == 1:
        return (
            f"# Domain: {name}\n\n"
            f"## Purpose\nCovers the project's knowledge about {_words(name)}.\n\n"
            f"## Scope\nIncluded in this domain: every topic under {folder}/.\n\n"
            "## Ownership\nNot set yet: edit this file to name the owning team.\n\n"
            f"## Usage\nReference when working on {_words(name)}.\n"
        )
    parent = _words(segments[-2])
    if len(segments) == 2:
        return (
            f"# Topic: {name}\n\n"
            f"## Overview\nKnowledge about {_words(name)} within {parent}.\n\n"
            f"## Key Concepts\nNot listed yet: the entries under {folder}/ hold them; edit "
            "this file to name the main ones.\n\n"
            "## Related Topics\nNone listed yet: edit this file to name them (domain/topic).\n"
        )
    return (
        f"# Subtopic: {name}\n\n"
        f"## Focus\nKnowledge about {_words(name)} within {parent}.\n\n"
        f"## Parent Relation\nPart of {segments[-2]}: covers {_words(name)}.\n"
    )


def context_text(folder: str) -> str:
    """The marked ``context.md`` text brv generates for a tree folder.

    Args:
        folder: the folder's tree path, ``domain``, ``domain/topic`` or
            ``domain/topic/subtopic``.

    Raises:
        ValueError: ``folder`` is not one to three segments deep.
    """
    segments = folder.strip("/").split("/")
    if not 1 <= len(segments) <= 3 or not all(segments):
        raise ValueError(f"no generated context.md for the folder {folder!r}")
    return mark(_body(segments))


def merged(base: bytes | None, ours: bytes, theirs: bytes, folder: str) -> bytes | None:
    """The merge of a ``context.md`` when a generated side settles it, else None.

    Trigger: two clones wrote different generated files for one folder (older brv drew the
    text from each clone's first entry), or one side edited a file the other left generated.
    Why: generated text is filler; only a person's words are knowledge. Outcome: two generated
    sides give the folder's generated text of today; a generated side against a person's file
    gives the person's file, unless the ancestor was a person's file too (then both sides
    changed knowledge, and it is merged as knowledge: None).

    Args:
        base: the ancestor (None or empty when both sides added the file).
        ours: our version.
        theirs: their version.
        folder: the folder's tree path.
    """
    ours_generated, theirs_generated = is_generated(ours), is_generated(theirs)
    if ours_generated and theirs_generated:
        try:
            return context_text(folder).encode("utf-8")
        except ValueError:
            return None
    if ours_generated == theirs_generated or (base and not is_generated(base)):
        return None
    return theirs if ours_generated else ours
