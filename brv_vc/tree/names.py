"""Entry file names from titles: readable, and never the same for two titles of a folder.

A title's *preferred* name spells out the symbols that make names (``clang++`` ->
``clang_plus_plus.md``, ``c#`` -> ``c_sharp.md``, ``.env`` -> ``dot_env.md``; in a title with
no letter or digit every symbol is spelled: ``!`` -> ``bang.md``, ``((`` ->
``lparen_lparen.md``). Other punctuation, spaces, case and accents fold away as before
(``JWT Token: Rotation`` -> ``jwt_token_rotation.md``), so two titles can still share a
preferred name (``JWT`` and ``jwt``). The second one then takes a short stable hash of its
title as a suffix (``jwt_3fa2b1.md``). Which name a title got is found by reading the title
recorded in the candidate files (``services/curate/names.py``), so a title always maps back
to its file, and names brv gave before (``legacy_name``: ``clang++`` was ``clang.md``) keep
resolving: an existing tree is never renamed.
"""

from __future__ import annotations

import hashlib
import unicodedata

from brv_vc.tree.layout import (
    MAX_NAME,
    MAX_NAME_BYTES,
    MAX_SEGMENT_BYTES,
    RESERVED_STEMS,
    snake,
    windows_problem,
)

# Symbols that make names (c++, c#, $HOME, Q&A): spelled out wherever they appear.
_SPELLED = {
    "+": "plus", "#": "sharp", "$": "dollar", "@": "at", "&": "and", "%": "percent",
    "*": "star", "=": "equals", "<": "lt", ">": "gt", "|": "pipe", "~": "tilde", "^": "caret",
}
# Punctuation of prose: a separator between words, spelled out only in a title with no
# letter or digit (``!``, ``[``, ``((`` are shell commands) and for a dot that starts a word.
_PUNCT = {
    "!": "bang", "?": "question", ".": "dot", ",": "comma", ":": "colon", ";": "semicolon",
    "'": "quote", '"': "dquote", "`": "backtick", "(": "lparen", ")": "rparen",
    "[": "lbracket", "]": "rbracket", "{": "lbrace", "}": "rbrace", "/": "slash",
    "\\": "backslash", "-": "dash", "_": "underscore",
}
_HASH_SHORT = 6
_HASH_LONG = 12
_EMPTY_STEM = "entry"


def normal_title(title: str) -> str:
    """The title as stored in the frontmatter: runs of whitespace become one space."""
    return " ".join(title.split())


def _word(char: str) -> bool:
    return char.isalnum()


def _symbol_name(char: str) -> str:
    """The spelled name of a symbol in a title with no letters (``→`` -> rightwards_arrow)."""
    known = _SPELLED.get(char) or _PUNCT.get(char)
    if known:
        return known
    return snake(unicodedata.name(char, ""))


def _stem(title: str) -> str:
    """The readable stem: symbols spelled out, then :func:`layout.snake`."""
    if not any(_word(c) for c in title):
        return "_".join(filter(None, (_symbol_name(c) for c in title if not c.isspace())))
    out: list[str] = []
    for i, char in enumerate(title):
        if char in _SPELLED:
            out.append(f" {_SPELLED[char]} ")
        elif (
            char == "."
            and i + 1 < len(title) and _word(title[i + 1])
            and (i == 0 or not _word(title[i - 1]))
        ):
            out.append(" dot ")
        else:
            out.append(char)
    return snake("".join(out))


def _cut(stem: str, limit: int, *, by_bytes: bool = True) -> str:
    """``stem`` cut to ``limit`` characters, at a word boundary when one is near.

    ``by_bytes``: also to a share of :data:`MAX_NAME_BYTES` (100 CJK characters are 300
    bytes, past NAME_MAX); without it, the cut earlier versions made (``legacy_names``).
    """
    if len(stem) <= limit and (not by_bytes or len(stem.encode("utf-8")) <= MAX_NAME_BYTES):
        return stem
    cut = stem[:limit]
    while by_bytes and len(cut.encode("utf-8")) > MAX_NAME_BYTES * limit // MAX_NAME:
        cut = cut[:-1]
    limit = len(cut)
    return cut[: cut.rfind("_")] if "_" in cut[limit // 2 :] else cut


def _digest(title: str, size: int) -> str:
    return hashlib.sha256(normal_title(title).encode("utf-8")).hexdigest()[:size]


def preferred_name(title: str) -> str | None:
    """The title's readable file name, or None when it would be empty or reserved."""
    stem = _cut(_stem(normal_title(title)), MAX_NAME)
    if not stem or stem in RESERVED_STEMS or windows_problem(stem):  # con.md: hashed instead
        return None
    return stem + ".md"


def hashed_names(title: str) -> list[str]:
    """The readable stem plus a short, then a longer, hash of the title."""
    base = _stem(normal_title(title)) or _EMPTY_STEM
    return [
        f"{_cut(base, MAX_NAME - size - 1)}_{_digest(title, size)}.md"
        for size in (_HASH_SHORT, _HASH_LONG)
    ]


def legacy_names(title: str) -> list[str]:
    """Names earlier versions (and ByteRover, in kebab-case) gave the title."""
    stem = _cut(snake(normal_title(title)), MAX_NAME)
    if not stem or stem in RESERVED_STEMS:
        return []
    # names cut by characters only, before the byte cut (long titles in CJK and the like)
    unbounded = [_cut(_stem(normal_title(title)), MAX_NAME, by_bytes=False),
                 _cut(snake(normal_title(title)), MAX_NAME, by_bytes=False)]
    return list(dict.fromkeys([stem + ".md", stem.replace("_", "-") + ".md",
                               *(old + ".md" for old in unbounded if old != stem
                                 and len(old.encode("utf-8")) + 3 <= MAX_SEGMENT_BYTES)]))


def new_names(title: str) -> list[str]:
    """File names a new entry of this title may take, in order of preference."""
    preferred = preferred_name(title)
    return [*([preferred] if preferred else []), *hashed_names(title)]


def lookup_names(title: str) -> list[str]:
    """Every name an existing entry of this title may have, in the order to try them."""
    return list(dict.fromkeys([*new_names(title)[:1], *legacy_names(title),
                               *hashed_names(title)]))


def entry_filename(title: str) -> str:
    """The name a new entry titled ``title`` takes in a folder where it is free."""
    return new_names(title)[0]
