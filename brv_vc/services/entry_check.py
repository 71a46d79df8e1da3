"""The check of one knowledge file's bytes: brv's format, and for entries the frontmatter schema.

Shared by the pre-commit check (``services/vc/checks.py``, the staged blobs) and curate's
check of what it is about to write (``services/curate/check.py``): one rule, one home, that
neither use case owns (curate depends on no ``vc`` module through it).
"""

from __future__ import annotations

from brv_vc.format import frontmatter as fm
from brv_vc.format.conflicts import START
from brv_vc.format.entry import canonical_frontmatter, decode, parse_entry
from brv_vc.tree.layout import Kind

FRONTMATTER_SCHEMA = "frontmatter"


def entry_check(data: bytes, file: str, kind: Kind) -> None:
    """Parses a knowledge file and, for entries, checks its frontmatter against the schema.

    Raises:
        FormatError: the file breaks the format or the schema.
    """
    stem = file.rsplit("/", 1)[-1].removesuffix(".md")
    text = decode(data, file=file)
    # brv's own canonical frontmatter gives its values without PyYAML (~3 ms a file), read
    # once: parse_entry would read it again and cannot fail on it (but for conflict markers)
    canonical = canonical_frontmatter(text)
    entry = None
    if canonical is None or START in text:
        entry = parse_entry(text, file=file, stem=stem)
    if kind is not Kind.ENTRY:
        return
    if canonical is not None:
        values = canonical[0]
    else:
        assert entry is not None
        source, _ = fm.split(text, file=file)
        if source is None:
            return
        values = {f.key: f.value for f in fm.load(source, file=file)}
        if not values.get("title"):
            values["title"] = entry.title  # taken from the '# ' heading (see parse_entry)
    from brv_vc.format.validate import validate  # jsonschema costs ~100 ms: only when needed

    validate(values, FRONTMATTER_SCHEMA, file=file)
