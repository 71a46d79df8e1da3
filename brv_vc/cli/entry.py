"""The process entry point of ``brv`` (console script and ``python -m brv_vc``).

Two commands have start-up budgets close to Python's own start-up (DESIGN.md), so this
entry does a little before click and the services are imported:
- ``brv vc status`` starts ``git status`` at once and lets the status service adopt the
  running process (``brv_vc.vc.git.prefetch``);
- ``brv search`` / ``brv query`` start their in-place scan (``index/scan.py``) at once, so
  it runs on the other cores while Python imports the search code;
- ``brv search`` / ``brv query`` / ``brv vc status`` / ``brv review pending`` try the
  click-free fast path (``cli/fast.py``), which prints exactly what the click commands print
  and hands anything else back.
Doing this here, not at import time of a package, keeps ``import brv_vc.cli`` free of effects.
Before all of it, pathlib (which every command needs) is imported without urllib.parse, and
the collector's young generation is made larger (:data:`YOUNG`).
"""

from __future__ import annotations

import gc
import sys

# Objects allocated between two young-generation collections (Python's default: 700). A vc
# process holds ~11,000 after importing its modules and parsing 100 entries: 6-15
# collections that free almost nothing (~1.5-2.5 ms of CPU in commit and pull; with 10,000,
# one that still costs 1.4 ms). Only garbage in reference cycles waits longer (at most this
# many objects, a few MB). Only the fast paths (short processes) run so: every other
# command (the MCP server, dreaming, a build) gets Python's thresholds back before click.
YOUNG = 50_000


def main() -> None:
    """Runs ``brv`` with the process arguments."""
    default = gc.get_threshold()
    gc.set_threshold(YOUNG, *default[1:])
    _import_pathlib()
    argv = sys.argv[1:]
    if "vc" in argv[:3] and "status" in argv[:4]:
        from brv_vc.vc.git.prefetch import prefetch_status

        prefetch_status(argv)
    if argv:
        from brv_vc.cli.fast import scan_early, try_fast
        from brv_vc.cli.inert import inert_streams

        scan_early(argv)  # before the search code is imported: the finds run beside it
        with inert_streams():  # as cli.main: nothing printed raw (cli/inert.py)
            code = try_fast(argv)
        if code is not None:
            sys.exit(code)
    gc.set_threshold(*default)  # a long process (mcp, dream) collects as Python does
    from brv_vc.cli.main import main as run

    run()



def _import_pathlib() -> None:
    """Imports pathlib without importing ``urllib.parse`` (and its ``ipaddress``) with it.

    Trigger: every brv command uses pathlib, and Python 3.11/3.12's pathlib imports
    ``urllib.parse`` at the top for one function, ``quote_from_bytes``, called only by
    ``Path.as_uri``. Why: the two modules cost ~2-4 ms of CPU, a tenth of what a process
    adds to ``git status`` (DESIGN.md budgets ``brv vc status`` against it). Outcome: while
    pathlib loads, ``urllib.parse`` is a stand-in whose ``quote_from_bytes`` imports the
    real one when called; it leaves ``sys.modules`` at once, so any later ``import
    urllib.parse`` loads the real module. A pathlib wanting anything else from it (another
    Python) imports the real one, as before.
    """
    if "pathlib" in sys.modules or "urllib.parse" in sys.modules:
        return
    stand_in = type(sys)("urllib.parse")
    stand_in.quote_from_bytes = _quote_from_bytes  # type: ignore[attr-defined]
    sys.modules["urllib.parse"] = stand_in
    try:
        import pathlib  # noqa: F401
    except ImportError:  # the next command's own import loads it with the real module
        pass
    finally:
        if sys.modules.get("urllib.parse") is stand_in:
            del sys.modules["urllib.parse"]


def _quote_from_bytes(bs: bytes, safe: str = "/") -> str:
    """``urllib.parse.quote_from_bytes``, imported at the first call (``Path.as_uri``)."""
    from urllib.parse import quote_from_bytes

    return quote_from_bytes(bs, safe)
