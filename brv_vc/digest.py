"""SHA-1 and SHA-256 without importing ``hashlib`` for a few small digests.

``import hashlib`` loads OpenSSL's ``_hashlib`` (~2-3 ms of CPU) at once, which every
``brv vc`` commit, pull and hook process paid for a handful of digests (index rows, summary
records, git blob ids). CPython's own ``_sha1`` and ``_sha256`` (``_sha2`` from 3.12) give
the same bytes with no such cost, but hash ~6x slower (~4 ms a MB against OpenSSL's ~0.7):
a full index build hashing every entry would lose more than the import saves. So the
built-in ones serve until this process has hashed :data:`SWITCH` bytes (what the import costs
in slower hashing, ~0.7 MB; a quarter of that, so a small process never pays more than ~1 ms
for it), and OpenSSL's from then on, or at once when ``hashlib`` is already loaded.
A layer-0 module, so every layer may use it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from hashlib import _Hash

SWITCH = 256 * 1024
_hashed = 0


def _builtin(name: str) -> Callable[..., _Hash] | None:
    for module in (f"_{name}", "_sha2"):
        try:
            return getattr(__import__(module), name)  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return None


_BUILTIN = {"sha1": _builtin("sha1"), "sha256": _builtin("sha256")}


def _hasher(name: str, size: int) -> Callable[..., _Hash]:
    global _hashed
    _hashed += size
    small = _BUILTIN[name]
    if small is not None and _hashed <= SWITCH and "hashlib" not in sys.modules:
        return small
    import hashlib

    return getattr(hashlib, name)  # type: ignore[no-any-return]


def sha1(data: bytes = b"") -> _Hash:
    """``hashlib.sha1(data)`` (the same object interface: update, digest, hexdigest)."""
    return _hasher("sha1", len(data))(data)


def sha256(data: bytes = b"") -> _Hash:
    """``hashlib.sha256(data)`` (the same object interface: update, digest, hexdigest)."""
    return _hasher("sha256", len(data))(data)
