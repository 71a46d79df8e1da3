"""SHA-1 and SHA-256 from the interpreter's built-in C modules, without ``hashlib``.

``import hashlib`` loads OpenSSL's ``_hashlib`` (~2-3 ms of CPU) at once, which every
``brv vc`` commit, pull and hook process paid for a handful of digests (index rows, summary
records, generated markers). CPython's own ``_sha1`` and ``_sha256`` (``_sha2`` from 3.12)
give the same bytes for ~0.1 ms; a Python built without them falls back to ``hashlib``.
A layer-0 module, so every layer may use it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from hashlib import _Hash


def _builtin(name: str) -> Callable[..., _Hash]:
    for module in (f"_{name}", "_sha2"):
        try:
            return getattr(__import__(module), name)  # type: ignore[no-any-return]
        except (ImportError, AttributeError):
            continue
    import hashlib

    return getattr(hashlib, name)  # type: ignore[no-any-return]


sha1 = _builtin("sha1")
sha256 = _builtin("sha256")
