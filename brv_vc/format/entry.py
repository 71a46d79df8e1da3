"""A knowledge entry: seed 000's seven frontmatter fields, any unknown keys, and the body.

``parse_entry`` and ``serialize_entry`` are exact inverses for every entry brv writes:
``parse_entry(serialize_entry(e)) == e`` and the bytes of an unchanged entry never move.
Files written by ByteRover 3.x load too. Their legacy lifecycle keys (importance, recency,
maturity, accessCount, updateCount) stay in ``extra`` (a rewrite keeps them untouched); brv
reads them once, to seed the scoring sidecar when it first sees the entry
(:func:`legacy_signals`), and from then on the sidecar is the truth.
A file without ``title`` takes the text of its first ``# `` heading; a ``context.md`` (named
by ``file``) needs neither (its folder's name is its title).
"""

from __future__ import annotations

import json
import re

from brv_vc.errors import FormatError
from brv_vc.format import body as bodymod
from brv_vc.format import field_types as fields
from brv_vc.format import frontmatter as fm
from brv_vc.format.conflicts import START, conflict_line
from brv_vc.format.limits import MAX_ENTRY_BYTES
from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

STRING_FIELDS = ("title", "summary")
LIST_FIELDS = ("tags", "keywords", "related")
TIME_FIELDS = ("createdAt", "updatedAt")
FIELD_ORDER = ("title", "summary", "tags", "keywords", "related", "createdAt", "updatedAt")
LEGACY_FIELDS = frozenset({"importance", "recency", "maturity", "accessCount", "updateCount"})
_H1_RE = lazy(r"^#\s+(.+?)\s*#*\s*$", re.MULTILINE)


class Entry(NamedTuple):
    """One knowledge file, as values.

    ``extra`` keeps frontmatter keys brv does not know, in their source order, so a rewrite
    never drops what another tool (or a person) put there.
    """

    title: str
    summary: str = ""
    tags: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()
    related: tuple[str, ...] = ()
    created_at: str = ""
    updated_at: str = ""
    body: str = ""
    extra: tuple[tuple[str, Any], ...] = ()

    def with_changes(self, **changes: Any) -> Entry:
        """Returns a copy with the given fields replaced."""
        return self._replace(**changes)

    def relations(self) -> tuple[str, ...]:
        """All relation targets: ``related`` then ``@`` lines of the Relations section, unique."""
        lines = bodymod.parse_relation_lines(bodymod.section_text(self.body, bodymod.RELATIONS))
        return tuple(dict.fromkeys([*self.related, *lines]))

    def facts(self) -> list[bodymod.Fact]:
        """The facts of the Facts section."""
        return bodymod.parse_facts(bodymod.section_text(self.body, bodymod.FACTS))

    def text_for_search(self) -> str:
        """The searchable text: summary, tags, keywords and the body."""
        return "\n".join([self.summary, " ".join(self.tags), " ".join(self.keywords), self.body])


def decode(data: bytes, *, file: str | None = None, limit: int | None = MAX_ENTRY_BYTES) -> str:
    """Decodes file bytes as UTF-8 text (a leading BOM is dropped).

    Args:
        data: the bytes.
        file: the file they came from (named in errors).
        limit: the largest size accepted (None: any); a knowledge file's by default.

    Raises:
        FormatError: too large, binary data, or bytes that are not UTF-8.
    """
    if limit is not None and len(data) > limit:
        raise FormatError(
            f"the file is larger than brv's limit of {limit:,} bytes for a "
            "knowledge file; it is not read",
            file=file,
            hint="split it into smaller entries (or move it out of the context tree)",
        )
    if b"\x00" in data:
        raise FormatError(
            "this is a binary file, not a markdown knowledge file",
            file=file,
            hint="knowledge files are UTF-8 markdown; move binary files out of the context tree",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FormatError(
            f"the file is not UTF-8 text (bad byte at offset {exc.start})",
            file=file,
            hint="re-save the file as UTF-8",
        ) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_entry(
    data: bytes | str, *, file: str | None = None, stem: str = "", remember: bool = True
) -> Entry:
    """Parses a knowledge file.

    Args:
        data: the file's bytes (or text).
        file: the path named in error messages.
        stem: the file name without ``.md``; the title of a file without frontmatter.
        remember: keep the text's canonical frontmatter for a later read (see
            :func:`canonical_frontmatter`); False for a read of more files than it holds.

    Returns:
        The entry.

    Raises:
        FormatError: the only error this raises, for any input (unresolved merge conflict
            markers included); its message names the file, the key and the fix.
    """
    text = decode(data, file=file) if isinstance(data, bytes) else data
    if START in text:  # a substring test: free for the files that have none
        _refuse_conflict(text, file)
    return _parse_canonical(text, remember) or _parse_yaml(text, file, stem)


def _refuse_conflict(text: str, file: str | None) -> None:
    """Raises when ``text`` holds a whole conflict block (the rule: ``format/conflicts.py``).

    Trigger: a merge or pull stopped on this file. Why: otherwise a conflict inside the
    frontmatter reads as "malformed YAML", and one in the body as valid knowledge with both
    versions in it. Outcome: the one error naming the fix.

    Raises:
        FormatError: the file has unresolved conflict markers.
    """
    start = conflict_line(text)
    if start is not None:
        name = file or "the file"
        raise FormatError(
            f"unresolved merge conflict markers (<<<<<<<) in {name}, line {start}",
            file=file,
            hint=f"resolve them (keep the right text, delete the <<<<<<< ======= >>>>>>> "
                 f"lines), then 'brv vc add {file or '<file>'}'",
        )


def _parse_yaml(text: str, file: str | None, stem: str) -> Entry:
    """The full parser: any YAML frontmatter, every problem named (see :func:`parse_entry`)."""
    source, body = fm.split(text, file=file)
    if source is None:
        heading = _H1_RE.search(text)
        title = heading.group(1) if heading else stem.replace("_", " ").strip()
        if not title:
            raise FormatError(
                "the file has no frontmatter and no '# ' heading to take a title from",
                file=file,
                hint='start the file with a frontmatter block holding at least title: "..."',
            )
        return Entry(title=title, body=text)
    values: dict[str, Any] = {}
    extra: list[tuple[str, Any]] = []
    for raw in fm.load(source, file=file):
        if raw.key in STRING_FIELDS:
            values[raw.key] = fields.string(raw, file)
        elif raw.key in LIST_FIELDS:
            values[raw.key] = fields.string_list(raw, file)
        elif raw.key in TIME_FIELDS:
            values[raw.key] = fields.timestamp(raw, file)
        else:
            extra.append((raw.key, raw.value))
    if not values.get("title"):
        values["title"] = _fallback_title(body, file, stem)
    if not values["title"]:
        raise FormatError(
            "required field 'title' is missing or empty",
            file=file,
            key="title",
            hint='add a line such as title: "JWT Token Generation" to the frontmatter',
        )
    return _entry(values, body, tuple(extra))


_KNOWN = frozenset(FIELD_ORDER)


def _fallback_title(body: str, file: str | None, stem: str) -> str:
    """The title of a file whose frontmatter has none.

    Its first ``# `` heading; else, for a ``context.md`` (its title is optional: ByteRover
    writes some with only ``related:``), the ``stem`` its caller gives (the folder's name);
    else "" (the caller refuses the file).
    """
    heading = _H1_RE.search(body)
    if heading:
        return heading.group(1)
    if file is not None and file.replace("\\", "/").rsplit("/", 1)[-1] == "context.md":
        return stem.replace("_", " ").strip()
    return ""


def legacy_signals(entry: Entry) -> dict[str, Any]:
    """The legacy lifecycle keys of an entry's frontmatter (older ByteRover), by name.

    Only well-typed values are returned: a number for importance, recency and the counts,
    one of draft/validated/core for maturity; anything else is left out.
    """
    found: dict[str, Any] = {}
    for key, value in entry.extra:
        if key not in LEGACY_FIELDS or isinstance(value, bool):
            continue
        if key == "maturity":
            if isinstance(value, str) and value.strip().lower() in ("draft", "validated", "core"):
                found[key] = value.strip().lower()
        elif isinstance(value, (int, float)) and value == value and value >= 0:
            found[key] = value
    return found


def _parse_canonical(text: str, remember: bool = True) -> Entry | None:
    """Reads the canonical frontmatter brv writes without PyYAML, else None for the full parser.

    PyYAML costs ~1 ms a file; it dominated index builds and summaries at 25,000 entries.
    """
    found = canonical_frontmatter(text, remember=remember)
    if found is None:
        return None
    values, body = found
    for key in LIST_FIELDS:
        if key in values:
            values[key] = tuple(values[key])
    return _entry(values, body, ())


# Texts already read by canonical_frontmatter in this process, with what it found: one user
# action reads each changed entry three or four times (the commit's validation, the index,
# the folder summaries, the abstracts queue), ~20 us each. Keyed by the text itself (equal
# text, equal answer); cleared when full, so a whole-tree build (or a resident process)
# holds at most SEEN_LIMIT texts and SEEN_CHARS characters of them. A read of more files than
# that (a whole-tree build) adds none: each text is read once there, and filling the memo only
# to clear it cost a build its largest share of memory (5 MB of 33 at 5,000 entries).
_SEEN: dict[str, tuple[dict[str, Any], str] | None] = {}
SEEN_LIMIT = 1024
SEEN_CHARS = 4 << 20
_seen_chars = 0


def memo_fits(files: int) -> bool:
    """True when a read of ``files`` files may keep their texts for a later read (the memo holds them)."""
    return files <= SEEN_LIMIT


def canonical_frontmatter(
    text: str, *, remember: bool = True
) -> tuple[dict[str, Any], str] | None:
    """(frontmatter values as YAML gives them, body) of a canonical file, else None.

    Canonical means: every line is ``key: <JSON string or array of strings>`` with a key of
    the seven; a JSON string is a YAML double-quoted scalar with the same value, so the values
    are exactly what the YAML path gives (lists as lists). Anything else (an unknown or legacy
    key, a plain scalar, a comment, a duplicate, a bad timestamp, characters YAML reads as
    line breaks) returns None, and the full parser reads it or names the problem.

    A text read before in this process is answered from :data:`_SEEN`; the values are the
    caller's own copy (its lists too), as a first read gives them. ``remember=False`` reads
    the memo but adds nothing to it (see :func:`memo_fits`).
    """
    global _seen_chars
    try:
        found = _SEEN[text]
    except KeyError:
        found = _read_canonical(text)
        if not remember:
            return found  # never handed out again: the caller may keep these values
        if len(_SEEN) >= SEEN_LIMIT or _seen_chars + len(text) > SEEN_CHARS:
            _SEEN.clear()
            _seen_chars = 0
        _SEEN[text] = found
        _seen_chars += len(text)
    if found is None:
        return None
    values, body = found
    return {key: value[:] if isinstance(value, list) else value
            for key, value in values.items()}, body


def _read_canonical(text: str) -> tuple[dict[str, Any], str] | None:
    """:func:`canonical_frontmatter` itself (the values are never handed out: callers get copies)."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0 or "\r" in text[:end]:
        return None
    values: dict[str, Any] = {}
    for line in text[4:end].split("\n"):
        key, sep, raw = line.partition(": ")
        if not sep or key not in _KNOWN or key in values or fm.unsafe_for_yaml(raw):
            return None
        try:
            value = _json_value(raw)
        except (ValueError, RecursionError):  # deep nesting: the YAML path names it
            return None
        if key in LIST_FIELDS:
            if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                return None
        elif not isinstance(value, str) or (key in TIME_FIELDS and value and not fields.is_iso(value)):
            return None
        values[key] = value
    if not values.get("title"):
        return None
    return values, text[end + 5 :]


_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]  # loads under 2 layers
_JSON_SPACE = " \t\n\r"


def _json_value(raw: str) -> Any:
    """``json.loads(raw)``, from its scanner when ``raw`` has nothing for loads to strip first.

    loads refuses a leading BOM, skips whitespace around the value and refuses anything after
    it; a ``raw`` that neither starts nor ends with those is the scanner's value when the
    scanner stops at its end, and an error otherwise (~40% of a canonical read).

    Raises:
        ValueError: ``raw`` is not one JSON value (``json.JSONDecodeError`` is one).
    """
    if raw and raw[0] not in _JSON_SPACE and raw[0] != "\ufeff" and raw[-1] not in _JSON_SPACE:
        try:
            value, end = _SCAN(raw, 0)
        except StopIteration:
            raise ValueError("expecting a JSON value") from None
        if end != len(raw):
            raise ValueError("extra data after the JSON value")
        return value
    return json.loads(raw)


def _entry(values: dict[str, Any], body: str, extra: tuple[tuple[str, Any], ...]) -> Entry:
    """An entry from frontmatter values keyed by their YAML names (both parse paths)."""
    return Entry(
        title=values["title"],
        summary=values.get("summary", ""),
        tags=values.get("tags", ()),
        keywords=values.get("keywords", ()),
        related=values.get("related", ()),
        created_at=values.get("createdAt", ""),
        updated_at=values.get("updatedAt", ""),
        body=body,
        extra=extra,
    )


def serialize_entry(entry: Entry) -> bytes:
    """Returns the canonical bytes of an entry (all seven fields, in seed order)."""
    lines = [
        fm.dump_string("title", entry.title),
        fm.dump_string("summary", entry.summary),
        fm.dump_list("tags", entry.tags),
        fm.dump_list("keywords", entry.keywords),
        fm.dump_list("related", entry.related),
        fm.dump_string("createdAt", entry.created_at),
        fm.dump_string("updatedAt", entry.updated_at),
    ]
    lines.extend(fm.dump_any(key, value) for key, value in entry.extra)
    return ("---\n" + "".join(lines) + "---\n" + entry.body).encode("utf-8")
