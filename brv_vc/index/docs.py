"""What the index stores for one file: title, searchable text, relations, last update.

Only the files that changed are read; this is the one place the index parses markdown (and
pays for PyYAML), so searching an unchanged tree never does.
"""

from __future__ import annotations

# typing costs ~5 ms to import and this module is on the cold search path
from brv_vc.record import NamedTuple
from brv_vc.tree.layout import ARCHIVE_DIR, STUB_SUFFIX, Kind, kind_of

INDEXED_KINDS = frozenset({Kind.ENTRY, Kind.CONTEXT, Kind.STUB})


class IndexDoc(NamedTuple):
    """The indexed view of one file."""

    title: str
    content: str
    relations: tuple[str, ...]
    updated: float | None
    keys: str = ""  # tags and keywords, searched with title weight
    legacy: tuple[tuple[str, object], ...] = ()  # older ByteRover's lifecycle keys, if any
    code: tuple[tuple[str, str], ...] = ()  # (repository path, how) it names: index.code_refs


def is_indexed(relpath: str) -> bool:
    """True for files the search index holds: entries, ``context.md`` files, archive stubs.

    Summaries, abstracts, overviews, the manifest and ``*.full.md`` archives are derived
    copies of other knowledge and would only echo it in results (byterover-cli.md §5.1).
    """
    return kind_of(relpath) in INDEXED_KINDS


def _stamp(text: str) -> float | None:
    from brv_vc.clock import parse_iso

    try:
        return parse_iso(text).timestamp() if text else None
    except ValueError:
        return None


def _stem_title(path: str) -> str:
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    return stem.replace("_", " ").replace("-", " ").strip() or stem


def extract(relpath: str, data: bytes, *, remember: bool = True) -> IndexDoc:
    """Builds the indexed view of a file's bytes (``remember``: as in ``parse_entry``).

    Raises:
        FormatError: the file cannot be parsed (the caller records it as a problem).
    """
    from brv_vc.format.entry import decode, legacy_signals, parse_entry
    from brv_vc.index.code_refs import extract as code_refs

    kind = kind_of(relpath)
    if kind is Kind.STUB:
        return _stub(relpath, decode(data, file=relpath))
    parts = relpath.split("/")
    stem = parts[-2] if kind is Kind.CONTEXT else parts[-1].removesuffix(".md")
    entry = parse_entry(data, file=relpath, stem=stem, remember=remember)  # canonical: no PyYAML
    title = entry.title
    if kind is Kind.CONTEXT and title == stem:
        title = f"{_stem_title(stem)} (context)"
    legacy = tuple(legacy_signals(entry).items()) if entry.extra and kind is Kind.ENTRY else ()
    return IndexDoc(
        title,
        entry.text_for_search(),
        entry.relations(),
        _stamp(entry.updated_at),
        " ".join([*entry.tags, *entry.keywords]),
        legacy,
        code_refs(entry.body) if kind is Kind.ENTRY else (),
    )


def _stub(relpath: str, text: str) -> IndexDoc:
    """A stub's title is its entry's (``title``); stubs written without one use the path's stem."""
    from brv_vc.format import frontmatter as fm

    source, body = fm.split(text, file=relpath)
    fields = {f.key: f.value for f in fm.load(source or "", file=relpath)}
    original = fields.get("original_path")
    if not isinstance(original, str) or not original:
        inner = relpath.removeprefix(ARCHIVE_DIR + "/").removesuffix(STUB_SUFFIX)
        original = inner + ".md"
    evicted = fields.get("evicted_at")
    title = fields.get("title")
    return IndexDoc(
        title=title if isinstance(title, str) and title.strip() else _stem_title(original),
        content=f"{body}\n{original}",
        relations=(),
        updated=_stamp(evicted) if isinstance(evicted, str) else None,
    )
