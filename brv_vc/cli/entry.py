"""The process entry point of ``brv`` (console script and ``python -m brv_vc``).

Two commands have start-up budgets close to Python's own start-up (DESIGN.md), so this
entry does a little before click and the services are imported:
- ``brv vc status`` starts ``git status`` at once and lets the status service adopt the
  running process (``brv_vc.vc.git_prefetch``);
- ``brv search`` / ``brv query`` start their in-place scan (``index/scan.py``) at once, so
  it runs on the other cores while Python imports the search code;
- ``brv search`` / ``brv query`` / ``brv vc status`` / ``brv review pending`` try the
  click-free fast path (``cli/fast.py``), which prints exactly what the click commands print
  and hands anything else back.
Doing this here, not at import time of a package, keeps ``import brv_vc.cli`` free of effects.
"""

from __future__ import annotations

import sys


def main() -> None:
    """Runs ``brv`` with the process arguments."""
    argv = sys.argv[1:]
    if "vc" in argv[:3] and "status" in argv[:4]:
        from brv_vc.vc.git_prefetch import prefetch_status

        prefetch_status(argv)
    if argv:
        from brv_vc.cli.fast import scan_early, try_fast
        from brv_vc.cli.inert import inert_streams

        scan_early(argv)  # before the search code is imported: the finds run beside it
        with inert_streams():  # as cli.main: nothing printed raw (cli/inert.py)
            code = try_fast(argv)
        if code is not None:
            sys.exit(code)
    from brv_vc.cli.main import main as run

    run()

