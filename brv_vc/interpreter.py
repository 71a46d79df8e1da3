"""The one path git is given to call this Python by (hooks, drivers, ``brv.python``).

A virtualenv's ``bin/`` holds ``python``, ``python3`` and ``python3.11``, links to one
interpreter. Recorded as ``sys.executable``, brv started once as ``python -m brv_vc`` and
once through ``python3`` (the console script's shebang) wrote two different paths into the
clone's git config, so every switch rewrote ``.git/config`` and made the next command
diagnose the hooks again. One name per folder and interpreter ends the flip-flop.
"""

from __future__ import annotations

import os
import sys
from functools import cache

_NAMES = ("python3", "python")  # the names a folder of Python links most often holds


@cache
def interpreter() -> str:
    """``sys.executable``, spelled ``<its folder>/python3`` (or ``python``) when that is it.

    Only a name in the same folder that resolves to the same file counts: a virtualenv
    finds its packages by the folder it was started from, so the folder never changes.
    """
    exe = sys.executable
    if not exe:
        return exe
    folder = os.path.dirname(exe)
    try:
        real = os.path.realpath(exe)
        for name in _NAMES:
            candidate = os.path.join(folder, name)
            if os.path.realpath(candidate) == real and os.access(candidate, os.X_OK):
                return candidate
    except OSError:
        pass
    return exe
