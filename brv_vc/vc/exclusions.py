"""Sync exclusions: the managed ``.gitignore`` and ``.gitattributes`` inside the tree.

Both files are COMMITTED (ByteRover's ``.gitignore`` ignores itself, so every clone has to
regenerate it and a teammate on an older version silently syncs derived files). Each holds a
managed block between marker lines that every vc command rewrites idempotently; lines a
person adds outside the block are kept.

:func:`is_excluded` is the same rule set as a pure predicate. It must agree with
``git check-ignore`` on every path (tests/test_vc_exclusions.py checks it against git).
"""

from __future__ import annotations

from pathlib import Path

BEGIN = "# >>> brv: managed block, rewritten by brv vc (edit outside it) >>>"
END = "# <<< brv: end of managed block <<<"

DERIVED_PATTERNS = ("_index.md", "_manifest.json", "*.abstract.md", "*.overview.md")
DERIVED_DIRS = ("_archived",)
JUNK_PATTERNS = (
    ".DS_Store", "._*", "Thumbs.db", "ehthumbs.db", "Desktop.ini", ".directory",
    ".fuse_hidden*", ".nfs*",
    "*.swp", "*.swo", "*~", ".#*", "*.bak", "*.tmp",
)
ATTRIBUTES = ("*.md merge=brv diff=brv",)


def ignore_lines() -> list[str]:
    """The managed ``.gitignore`` lines (without markers)."""
    return [
        "# derived: rebuilt on every clone by brv, never synced",
        *DERIVED_PATTERNS,
        *(name + "/" for name in DERIVED_DIRS),
        "# OS and editor junk",
        *JUNK_PATTERNS,
    ]


def is_excluded(relpath: str) -> bool:
    """True when the managed rules keep ``relpath`` (tree-relative, POSIX) out of git.

    Every pattern has no slash but a possible trailing one, so git matches it against each
    path component: files and folders for plain patterns, folders only for ``name/``.
    """
    parts = relpath.split("/")
    for index, part in enumerate(parts):
        is_dir = index < len(parts) - 1
        if is_dir and part in DERIVED_DIRS:
            return True
        if matches(part):
            return True
    return False


def _forms(patterns: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...], tuple[str, ...],
                                               tuple[str, ...]]:
    """(names, prefixes of ``name*``, suffixes of ``*name``, any other pattern) of ``patterns``.

    Every pattern brv manages is one of the first three forms, which ``fnmatchcase`` matches
    exactly as ``==``, ``startswith`` and ``endswith`` do.
    """
    names, prefixes, suffixes, others = set(), [], [], []
    for pattern in patterns:
        stars = pattern.count("*")
        if "?" in pattern or "[" in pattern or stars > 1:
            others.append(pattern)
        elif not stars:
            names.add(pattern)
        elif pattern.endswith("*"):
            prefixes.append(pattern[:-1])
        elif pattern.startswith("*"):
            suffixes.append(pattern[1:])
        else:
            others.append(pattern)
    return frozenset(names), tuple(prefixes), tuple(suffixes), tuple(others)


# string tests, not one compiled regular expression: a vc process compiled it (22
# fnmatch.translate calls and a 320-character pattern, ~0.5 ms of CPU) to match ~100 paths
_NAMES, _PREFIXES, _SUFFIXES, _OTHERS = _forms((*DERIVED_PATTERNS, *JUNK_PATTERNS))


def matches(name: str) -> bool:
    """True when one path component ``name`` matches a managed file pattern (``fnmatchcase``)."""
    if name in _NAMES or name.startswith(_PREFIXES) or name.endswith(_SUFFIXES):
        return True
    if _OTHERS:
        from fnmatch import fnmatchcase

        return any(fnmatchcase(name, pattern) for pattern in _OTHERS)
    return False


def with_block(current: str, lines: list[str]) -> str:
    """Returns ``current`` with its managed block replaced by ``lines`` (appended if absent).

    Lines outside the block are kept as they are, in place.
    """
    block = "\n".join([BEGIN, *lines, END]) + "\n"
    text = current.replace("\r\n", "\n")
    start = text.find(BEGIN)
    end = text.find(END, start + 1) if start != -1 else -1
    if start != -1 and end != -1:
        after = text[end + len(END):]
        return text[:start] + block + after.removeprefix("\n")
    if text and not text.endswith("\n"):
        text += "\n"
    return text + ("\n" if text else "") + block


def ensure_files(tree: Path) -> list[str]:
    """Writes the managed blocks of ``.gitignore`` and ``.gitattributes`` when they differ.

    Returns:
        The names of the files rewritten (empty when both were up to date).
    """
    changed = []
    for name, lines in ((".gitignore", ignore_lines()), (".gitattributes", list(ATTRIBUTES))):
        path = tree / name
        try:
            current = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            current = ""
        wanted = with_block(current, lines)
        if wanted != current:
            # imported here: the store pulls in the YAML parser, which 'vc status' never needs
            from brv_vc.tree.store import write_atomic

            if write_atomic(path, wanted.encode("utf-8")):
                changed.append(name)
    return changed
