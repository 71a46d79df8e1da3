"""The process entry point of ``brv`` (console script and ``python -m brv_vc``).

It exists for one reason: ``brv vc status`` is budgeted at 2x a plain ``git status``
(DESIGN.md), and Python start-up plus the CLI imports cost about as much as git itself.
So, before click and the services are imported, it starts ``git status`` and lets the
status service adopt the running process (see ``brv_vc.vc.git.prefetch_status``). Doing
this here, not at import time of a package, keeps ``import brv_vc.cli`` free of effects.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Runs ``brv`` with the process arguments."""
    argv = sys.argv[1:]
    if "vc" in argv[:3] and "status" in argv[:4]:
        from brv_vc.vc.git import prefetch_status

        prefetch_status(argv)
    from brv_vc.cli.main import main as run

    run()
