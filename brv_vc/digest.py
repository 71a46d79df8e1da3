"""SHA-1 and SHA-256 without importing ``hashlib`` for a few small digests.

``import hashlib`` loads OpenSSL's ``_hashlib`` (~2-3 ms of CPU) at once, which every
``brv vc`` commit, pull and hook process paid for a handful of digests (index rows, summary
records, git blob ids). CPython's own ``_sha1`` and ``_sha256`` (``_sha2`` from 3.12) give
the same bytes with no such cost, but hash ~5-7x slower (3.2 ms a MB for SHA-256, 4.4 for
SHA-1, against OpenSSL's ~0.6): a full index build hashing every entry would lose more than
the import saves. So the built-in ones serve until this process has hashed :data:`SWITCH`
bytes, and OpenSSL's from then on, or at once when OpenSSL's ``_hashlib`` is already loaded. SWITCH is
where the slower hashing has cost what the import costs (~3 ms: 1.2 MB of SHA-256, 0.8 of
SHA-1), the rule that never pays more than twice the better choice made in hindsight; at a
quarter of it (256 KB, until 2026-11) a 100-entry commit (~0.9 MB: index rows and summary
records) and a 1-entry pre-commit (~0.45 MB) paid both the slow bytes and the import.
A layer-0 module, so every layer may use it.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from hashlib import _Hash

SWITCH = 1024 * 1024
_hashed = 0


def _builtin(name: str) -> Callable[..., _Hash] | None:
    for module in (f"_{name}", "_sha2"):
        try:
            return getattr(__import__(module), name)  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    return None


# filled at each algorithm's first use: a process that hashes nothing (vc add, vc push)
# loads neither extension module (~0.3 ms)
_BUILTIN: dict[str, Callable[..., _Hash] | None] = {}
_OPENSSL: dict[str, Callable[..., _Hash]] = {}  # chosen once per algorithm (_openssl)


def _hasher(name: str, size: int) -> Callable[..., _Hash]:
    global _hashed
    _hashed += size
    if _hashed <= SWITCH and "_hashlib" not in sys.modules:
        small = _BUILTIN[name] if name in _BUILTIN else _BUILTIN.setdefault(name, _builtin(name))
        if small is not None:
            return small
    return _OPENSSL[name] if name in _OPENSSL else _OPENSSL.setdefault(name, _openssl(name))


def _openssl(name: str) -> Callable[..., _Hash]:
    """OpenSSL's constructor for ``name``, as ``hashlib`` chooses it, without hashlib's set-up.

    ``hashlib.sha256`` is ``_hashlib.openssl_sha256`` when OpenSSL will hash with it (hashlib
    tries each constructor once, ~1 ms for every algorithm and ``_blake2``): tried once here
    too. A Python without OpenSSL, or a policy refusing the digest: hashlib's own choice.
    """
    try:
        import _hashlib

        made = getattr(_hashlib, f"openssl_{name}")
        made(usedforsecurity=False)
        return made  # type: ignore[no-any-return]
    except (ImportError, AttributeError, ValueError):
        import hashlib

        return getattr(hashlib, name)  # type: ignore[no-any-return]


def sha1(data: bytes = b"") -> _Hash:
    """``hashlib.sha1(data)`` (the same object interface: update, digest, hexdigest)."""
    return _hasher("sha1", len(data))(data)


def sha256(data: bytes = b"") -> _Hash:
    """``hashlib.sha256(data)`` (the same object interface: update, digest, hexdigest)."""
    return _hasher("sha256", len(data))(data)
