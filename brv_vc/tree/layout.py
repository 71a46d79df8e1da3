"""Layout rules of the context tree (seed 000).

``domain/topic[/subtopic]/entry.md``: at most one subtopic level; snake_case folder names;
an entry's file is named after its title (``names.py``); ``context.md`` describes each level. Everything
else in the tree is derived (summaries, abstracts, overviews, the manifest, the archive)
and can be rebuilt, so it is never synced and never indexed as knowledge.
"""

from __future__ import annotations

import re
from enum import StrEnum

from brv_vc.errors import InvalidPathError
from brv_vc.pattern import lazy

CONTEXT_FILE = "context.md"
SUMMARY_FILE = "_index.md"
MANIFEST_FILE = "_manifest.json"
ARCHIVE_DIR = "_archived"
ABSTRACT_SUFFIX = ".abstract.md"
OVERVIEW_SUFFIX = ".overview.md"
STUB_SUFFIX = ".stub.md"
FULL_SUFFIX = ".full.md"
MAX_DEPTH = 3  # domain / topic / subtopic
MAX_NAME = 100
# A name's bytes, with room for the longest suffix brv adds (``_<12 hex>.overview.md``):
# 100 characters of CJK are 300 bytes, past NAME_MAX.
MAX_NAME_BYTES = 200
RESERVED_STEMS = frozenset({"context", "_index", "_manifest", "_archived", "readme", "index"})
# The longest file name most file systems take (NAME_MAX, in bytes): a longer segment cannot
# exist, so it is refused before any stat (a 300-character segment once ended in exit 3).
MAX_SEGMENT_BYTES = 255
# A tree path is at most four such segments (domain/topic/subtopic/entry); a longer one cannot
# name anything, and past PATH_MAX (4,096 bytes with the project's own path) the first stat
# failed with ENAMETOOLONG (exit 3): refused from its length.
MAX_PATH_CHARS = 2_048
# Names a Windows clone cannot check out (the device names, with any extension, any case).
WINDOWS_RESERVED = frozenset({"con", "prn", "aux", "nul", *(f"com{i}" for i in "0123456789"),
                              *(f"lpt{i}" for i in "0123456789"), "com¹", "com²", "com³",
                              "lpt¹", "lpt²", "lpt³"})
_WINDOWS_ILLEGAL = lazy(r'[<>:"|?*\x00-\x1f]')
# Letters and digits of any script stay; accents fold away (NFKD), everything else is "_".
_NON_WORD = lazy(r"[\W_]+")
_VALID_SEGMENT = lazy(r"^[^\W_][\w-]*$")


class Kind(StrEnum):
    """What a file in the tree is."""

    ENTRY = "entry"
    CONTEXT = "context"
    SUMMARY = "summary"
    ABSTRACT = "abstract"
    OVERVIEW = "overview"
    MANIFEST = "manifest"
    STUB = "archive_stub"
    FULL = "archive_full"
    OTHER = "other"


def snake(name: str) -> str:
    """Normalises a name: accents folded, lowercase, runs of other characters to ``_``, trimmed.

    ``Café`` becomes ``cafe``; letters of any script are kept (``設定`` stays).
    """
    import unicodedata  # ~1.5 ms, and only names being made need it (not the search path)

    kept: list[str] = []
    for char in unicodedata.normalize("NFKD", name):
        # an accent on a Latin letter goes (é -> e); other marks stay (パ keeps its ゚)
        if unicodedata.combining(char) and kept and kept[-1].isascii():
            continue
        kept.append(char)
    folded = unicodedata.normalize("NFC", "".join(kept))
    return _NON_WORD.sub("_", folded.lower()).strip("_")


def kind_of(relpath: str) -> Kind:
    """Classifies a tree-relative POSIX path."""
    parts = relpath.split("/")
    name = parts[-1]
    if parts[0] == ARCHIVE_DIR:
        if name.endswith(STUB_SUFFIX):
            return Kind.STUB
        return Kind.FULL if name.endswith(FULL_SUFFIX) else Kind.OTHER
    if relpath.startswith(".") or "/." in relpath:  # a hidden part (no generator: ~9 calls a path)
        return Kind.OTHER
    if name == MANIFEST_FILE and len(parts) == 1:
        return Kind.MANIFEST
    if not name.endswith(".md"):
        return Kind.OTHER
    if name == SUMMARY_FILE:
        return Kind.SUMMARY
    if name.endswith(ABSTRACT_SUFFIX):
        return Kind.ABSTRACT
    if name.endswith(OVERVIEW_SUFFIX):
        return Kind.OVERVIEW
    if name == CONTEXT_FILE:
        return Kind.CONTEXT if len(parts) >= 2 else Kind.OTHER
    return Kind.ENTRY if 3 <= len(parts) <= MAX_DEPTH + 1 else Kind.OTHER


def archive_paths(relpath: str) -> tuple[str, str]:
    """The stub and full paths of an entry's archive.

    Here, not in ``summary.archive``: the post-change step of every pull needs the paths,
    not the archive writer and its imports.
    """
    stem = relpath[:-3] if relpath.endswith(".md") else relpath
    return f"{ARCHIVE_DIR}/{stem}{STUB_SUFFIX}", f"{ARCHIVE_DIR}/{stem}{FULL_SUFFIX}"


def is_derived(relpath: str) -> bool:
    """True for files brv regenerates and never syncs (summaries, abstracts, archive...)."""
    return kind_of(relpath) in {
        Kind.SUMMARY, Kind.ABSTRACT, Kind.OVERVIEW, Kind.MANIFEST, Kind.STUB, Kind.FULL
    } or relpath.split("/")[0] == ARCHIVE_DIR


TREE_FROM_ROOT = ".brv/context-tree/"


def _from_tree_root(raw: str) -> str:
    """A tree path from a path given from the project root, as ``git status`` prints it.

    ``.brv/context-tree/a/b/c.md`` -> ``a/b/c.md``; any other path is returned as it is.
    """
    bare = raw[2:] if raw.startswith("./") else raw
    if bare.startswith(TREE_FROM_ROOT) or bare == TREE_FROM_ROOT.rstrip("/"):
        return bare[len(TREE_FROM_ROOT):]
    return raw


def clean_relpath(path: str, *, what: str = "path") -> str:
    """Normalises a user-given tree path: forward slashes, no leading ``@``/``/``, no ``..``.

    A path from the project root (``.brv/context-tree/auth/jwt/x.md``) is accepted too.

    Raises:
        InvalidPathError: absolute paths, ``..`` segments, empty or hidden segments.
    """
    raw = path.strip().replace("\\", "/")
    if raw.startswith("@"):
        raw = raw[1:]
    raw = _from_tree_root(raw)
    if raw.startswith("/") or re.match(r"^[A-Za-z]:", raw):
        raise InvalidPathError(
            f"{what} '{path}' is absolute; paths are relative to the context tree",
            hint="write it as domain/topic or domain/topic/entry.md",
        )
    if len(raw) > MAX_PATH_CHARS:  # every segment may be short and the whole too long
        raise InvalidPathError(
            f"{what} '{path[:60]}...' is {len(raw):,} characters long; the limit is "
            f"{MAX_PATH_CHARS:,} (no file system opens a longer path)",
            hint="give a path such as domain/topic/entry.md")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if not parts:
        raise InvalidPathError(f"{what} is empty", hint="give a path such as domain/topic")
    for part in parts:
        if part == "..":
            raise InvalidPathError(
                f"{what} '{path}' leaves the context tree ('..')",
                hint="paths are relative to .brv/context-tree and may not contain '..'",
            )
        if part.startswith(".") or "\x00" in part:
            raise InvalidPathError(
                f"{what} '{path}' has a hidden or invalid segment '{part}'",
                hint="use letters, digits, '_' and '-' in names",
            )
        if not part.isascii():
            _refuse_invisible(part, path, what)
        if len(part.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES:
            raise InvalidPathError(
                f"{what} '{path[:60]}...' has a name of {len(part):,} characters; no file "
                f"system stores a name longer than {MAX_SEGMENT_BYTES} bytes",
                hint=f"use names of at most {MAX_NAME} characters, such as api_design",
            )
    return "/".join(parts)


def _refuse_invisible(part: str, path: str, what: str) -> None:
    """Refuses a segment holding a control or format character (Unicode Cc, Cf).

    Trigger: a bidi override (U+202E), an isolate, a zero-width space, a BOM in a name. Why:
    :func:`snake` drops them, so ``api<U+202E>`` was silently folded into the existing
    ``api`` folder, and shown raw such a name reorders or hides text. Outcome: refused,
    naming the segment and the character (ASCII segments never pay the check).
    """
    import unicodedata

    for char in part:
        if unicodedata.category(char) in ("Cc", "Cf"):
            code = f"U+{ord(char):04X}"
            name = unicodedata.name(char, "a control character")
            shown = part.encode("unicode_escape").decode("ascii")
            raise InvalidPathError(
                f"{what} segment '{shown}' holds the invisible character {code} ({name}); "
                "brv would drop it and fold the name into another",
                key="path",
                hint=f"remove {code} from the name (retype it, or copy it from plain text)",
            )


def windows_problem(name: str) -> str | None:
    """Why a new file or folder name could not be checked out on Windows, or None.

    A device name (``con``, ``nul.md``, ``com1``: any case, any extension), a character
    Windows forbids (``<>:"|?*``, controls) or a trailing dot or space. Existing names are
    left alone (a teammate's tree keeps working); only names brv is asked to create are
    refused.
    """
    bad = _WINDOWS_ILLEGAL.search(name)
    if bad:
        return f"holds {bad.group()!r}, which Windows does not allow in file names"
    if name.endswith((".", " ")):
        return "ends with a dot or a space, which Windows drops from file names"
    if name.split(".", 1)[0].rstrip(" ").lower() in WINDOWS_RESERVED:
        return "is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)"
    return None


def refuse_windows_name(name: str, path: str) -> None:
    """Raises InvalidPathError when a new ``name`` (in ``path``) cannot exist on Windows."""
    problem = windows_problem(name)
    if problem:
        raise InvalidPathError(
            f"name '{name}' in '{path}' {problem}, so a Windows clone could not check it out",
            key="path",
            hint="choose another name (for an entry: another title, or add a word: con_config)",
        )


def folder_segments(path: str) -> tuple[str, ...]:
    """Validates and normalises ``domain/topic[/subtopic]`` into snake_case segments.

    Raises:
        InvalidPathError: wrong depth, reserved or empty names, ``..`` and the like.
    """
    parts = clean_relpath(path, what="folder").split("/")
    if not 2 <= len(parts) <= MAX_DEPTH:
        raise InvalidPathError(
            f"'{path}' has {len(parts)} level(s); knowledge lives in domain/topic or "
            "domain/topic/subtopic",
            hint="give two or three names, such as auth/jwt or auth/jwt/refresh_tokens",
        )
    return tuple(_segment(part, path) for part in parts)


def _segment(part: str, path: str) -> str:
    refuse_windows_name(part.strip(), path)
    name = snake(part)
    if not name:
        raise InvalidPathError(
            f"name '{part}' in '{path}' has no letters or digits",
            hint="use names such as api_design or auth",
        )
    refuse_windows_name(name, path)
    if name in RESERVED_STEMS or part.startswith("_"):
        raise InvalidPathError(
            f"name '{part}' in '{path}' is reserved by brv", hint="choose another name"
        )
    if len(name) > MAX_NAME or len(name.encode("utf-8")) > MAX_NAME_BYTES:
        raise InvalidPathError(
            f"name '{part[:40]}...' in '{path}' is longer than {MAX_NAME} characters "
            f"(or {MAX_NAME_BYTES} bytes)",
            hint="use a shorter name",
        )
    return name


def is_valid_folder_name(name: str) -> bool:
    """True when a folder already on disk follows the naming rules (snake or kebab case)."""
    return (
        bool(_VALID_SEGMENT.match(name)) and name == name.lower() and name not in RESERVED_STEMS
    )


def ancestors(relpath: str) -> list[str]:
    """Folders containing ``relpath``, nearest first, ending with '' (the tree root)."""
    parts = relpath.split("/")[:-1]
    return ["/".join(parts[:i]) for i in range(len(parts), -1, -1)]


LAYOUT_RULE = "knowledge lives in domain/topic/entry.md or domain/topic/subtopic/entry.md"


_SYNTHESIS_LINE = lazy(rb"^type:[ \t]*[\"']?synthesis[\"']?[ \t]*\r?$", re.MULTILINE)


def may_be_synthesis(relpath: str) -> bool:
    """Whether a file there could be a synthesis, judged by its path alone.

    What :func:`is_synthesis_file` checks before it reads the file: a markdown file directly
    in a domain folder, neither ``context.md`` nor derived.
    """
    return (relpath.count("/") == 1 and relpath.endswith(".md") and not relpath.startswith(".")
            and kind_of(relpath) is Kind.OTHER and not is_derived(relpath))


def is_synthesis_file(relpath: str, head: bytes) -> bool:
    """True for a dream synthesis placed directly in a domain folder (seed 001, ByteRover).

    ``head`` is the start of the file (its first 4 KiB are enough): its frontmatter must say
    ``type: synthesis``. Such files are knowledge (indexed, searched, synced) although they
    sit one level above the entries.
    """
    if not may_be_synthesis(relpath) or not head.startswith(b"---"):
        return False
    end = head.find(b"\n---", 3)
    return _SYNTHESIS_LINE.search(head, 0, end if end > 0 else len(head)) is not None


def misplaced(relpath: str, head: bytes | None = None) -> str | None:
    """Why a markdown file of the tree is outside the layout, or None when it is not.

    Such a file (an ``.md`` at the tree root, directly in a domain folder, or deeper than one
    subtopic) is neither an entry, a ``context.md`` nor derived: brv never indexes it, so
    it is invisible to search, query and ``brv tree``. Given the file's ``head``, a synthesis
    in a domain folder (:func:`is_synthesis_file`) is in place.
    """
    if not relpath.endswith(".md") or kind_of(relpath) is not Kind.OTHER or is_derived(relpath):
        return None
    if head is not None and is_synthesis_file(relpath, head):
        return None
    parts = relpath.split("/")
    if any(p.startswith(".") for p in parts):
        return None
    depth = len(parts) - 1
    if depth == 0:
        where = "it sits at the root of the context tree"
    elif depth == 1:
        where = f"it sits directly in the domain folder {parts[0]}/"
    else:
        where = f"it is {depth} folders deep; the most is {MAX_DEPTH} (domain/topic/subtopic)"
    return f"is outside the layout ({where}): {LAYOUT_RULE}, so brv never indexes or searches it"
