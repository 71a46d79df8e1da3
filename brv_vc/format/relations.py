"""The one key of a relation target: which tree path a relation names, however it is written.

A relation is written in an entry's ``related`` list or as an ``@path`` line of its
Relations section, by brv or by hand: ``auth/jwt/old.md``, ``@auth/jwt/old.md``,
``./auth/jwt/old.md``, ``/auth/jwt/old.md`` and ``auth/jwt/old.md/`` all name one path
(:func:`target_path`, what the search index stores). Two targets name the same entry when
their :func:`target_key` is equal (letter case folded): a MERGE relinks by it and the index
finds the entries to relink by it, so a link the index reads as naming the source is the
link the MERGE rewrites. Curate writes its own targets lowercased (``normalise_related``),
from :func:`written`.
"""

from __future__ import annotations


def written(raw: str) -> str:
    """The target as written, without its ``@`` and surrounding blanks."""
    return raw.strip().lstrip("@").strip()


def target_path(raw: str) -> str:
    """A relation target as a tree path: no ``@``, no leading ``./`` or ``/``, no trailing ``/``."""
    target = written(raw)
    while target.startswith(("./", "/")):
        target = target[1:] if target.startswith("/") else target[2:]
    return target.rstrip("/")


def target_key(raw: str) -> str:
    """What two relation targets naming the same entry share: the path, its case folded."""
    return target_path(raw).lower()


__all__ = ["target_key", "target_path", "written"]
