"""A click-free fast path: ``brv search``, ``brv query``, ``brv vc status``, ``brv review pending``.

Agents call the first two in tight loops, the third is budgeted against ``git status`` and
the last is polled by agents and hooks (issue 12: under 1 s over 1,000 entries): a cold
process then does not pay ~20-30 ms for importing click and dispatching through it (~60 ms
of CPU for ``review pending``, a fifth of it).

It understands exactly the documented options; anything else (``--help``, an unknown or
malformed option, a domain error to report) returns None and the regular click entry point
runs instead, so behaviour and messages stay those of ``brv_vc.cli.main``. Domain errors
here are all raised before anything is written, so running again through click is safe.
"""

from __future__ import annotations

import os
import sys

# typing costs ~5 ms to import and this module is on the cold search path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from datetime import datetime
    from typing import Any

    from brv_vc.tree.project import Project

_VALUE_OPTIONS = {
    "search": {"--limit": "limit", "-n": "limit", "--scope": "scope"},
    "query": {"--max-iterations": "max_iterations"},
}
_FLAGS = {"search": {"--no-record": ("record", False)}, "query": {}}


def _parse(argv: list[str]) -> tuple[str, str | None, str, dict[str, Any], bool] | None:
    """Returns (command, -C dir, text, options, as_json) or None when click should parse."""
    directory, args = _directory(argv)
    if not args or args[0] not in _VALUE_OPTIONS:
        return None
    command, rest = args[0], args[1:]
    options: dict[str, Any] = {}
    texts: list[str] = []
    as_json = False
    i = 0
    while i < len(rest):
        arg = rest[i]
        name, eq, inline = arg.partition("=")
        if arg == "--json":
            as_json = True
        elif arg in _FLAGS[command]:
            key, flag = _FLAGS[command][arg]
            options[key] = flag
        elif name in _VALUE_OPTIONS[command]:
            value = inline if eq else (rest[i + 1] if i + 1 < len(rest) else None)
            if value is None:
                return None
            i += 0 if eq else 1
            options[_VALUE_OPTIONS[command][name]] = value
        elif arg == "--":
            texts.extend(rest[i + 1 :])
            break
        elif arg.startswith("-") and arg != "-":
            return None
        else:
            texts.append(arg)
        i += 1
    if len(texts) != 1:
        return None
    for key in ("limit", "max_iterations"):
        if key in options:
            try:
                options[key] = int(options[key])
            except ValueError:
                return None
    if options.get("max_iterations") is not None and not 1 <= options["max_iterations"] <= 50:
        return None
    return command, directory, texts[0], options, as_json


def _directory(argv: list[str]) -> tuple[str | None, list[str]]:
    """(the ``-C`` folder or None, the arguments after it)."""
    if argv[:1] == ["-C"] and len(argv) > 1:
        return argv[1], argv[2:]
    return None, list(argv)


def scan_early(argv: list[str]) -> None:
    """``search`` / ``query``: starts the in-place scan before the search code is imported.

    From the folder alone (``index.scan.start_early``); ``find_project``'s tree adopts it.
    """
    directory, args = _directory(argv)
    if args and args[0] in ("search", "query") and "--help" not in args:
        from brv_vc.index.scan import start_early

        start_early(directory or os.getcwd())


def _start(directory: str | None, *, scan: bool = False) -> tuple[datetime, Project,
                                                                  tuple[str, ...]] | None:
    """(now, the project, its config warnings), as every command starts.

    ``BRV_NOW`` or the clock; ``-C`` or the cwd; ``scan``: the search's in-place scan started
    beside the imports that follow (``index/scan.py``). None when any of it fails: the click
    path runs it again behind the one error boundary and reports.
    """
    try:
        from brv_vc.clock import parse_iso, utcnow

        now = parse_iso(os.environ["BRV_NOW"]) if os.environ.get("BRV_NOW") else utcnow()
        from pathlib import Path

        from brv_vc.tree.project import find_project

        project = find_project(Path(directory).resolve() if directory else Path.cwd())
        if scan:
            from brv_vc.index.scan import start

            start(project.tree, project.state)
        from brv_vc.tree.config import ensure_valid_config

        return now, project, ensure_valid_config(project)
    except Exception:
        return None


def try_fast(argv: list[str]) -> int | None:
    """Runs ``search``/``query``/``vc status`` without click when it can.

    Args:
        argv: the arguments after the program name.

    Returns:
        The exit code, or None: "let the click CLI handle it".
    """
    if "vc" in argv[:3]:
        return _vc_status(argv)
    if "review" in argv[:3]:
        return _review_pending(argv)
    parsed = _parse(argv)
    if parsed is None:
        return None
    command, directory, text, options, as_json = parsed
    started = _start(directory, scan=True)
    if started is None:
        return None
    now, project, config_notes = started
    from brv_vc.cli.index_notice import install

    install()  # a long build of a missing index shows a counter on a terminal
    try:
        if command == "search":
            from brv_vc.cli.retrieval_text import search_text as render
            from brv_vc.services.query import search_tree

            result: Any = search_tree(project, text, now=now, **options)
            warnings = [*config_notes, *result.notes]
        else:
            from brv_vc.cli.retrieval_text import query_text as render
            from brv_vc.services.query import query_tree

            result = query_tree(project, text, now=now, **options)
            warnings = [*config_notes, *result.notes, *([result.error] if result.error else [])]
    except Exception:  # the click path runs it again behind the one error boundary
        return None
    for note in warnings:
        sys.stderr.write(f"brv: warning: {note}\n")
    sys.stdout.write(_json(result) if as_json else render(result) + "\n")
    sys.stdout.flush()
    return 0


def _vc_status(argv: list[str]) -> int | None:
    """``brv [-C DIR] vc status [--json]``, adopting the ``git status`` already running.

    ``cli/entry.py`` started it before importing anything else.
    """
    directory, args = _directory(argv)
    if args not in (["vc", "status"], ["vc", "status", "--json"]):
        return None
    from pathlib import Path

    from brv_vc.services.vc import prepare, status
    from brv_vc.tree.project import find_project

    cwd = Path(directory).resolve() if directory else Path.cwd()
    try:
        # prepare is idempotent: if it or status fails, click runs both again and reports
        project = find_project(cwd)
        from brv_vc.tree.config import ensure_valid_config

        config_notes = ensure_valid_config(project)
        report = status(prepare(project))
    except Exception:  # the click path runs it again behind the one error boundary
        return None
    for note in config_notes:
        sys.stderr.write(f"brv: warning: {note}\n")
    if args[-1] == "--json":
        sys.stdout.write(_json(report))
    else:
        from brv_vc.cli.vc.render import status_text

        text = status_text(report)
        sys.stdout.write(text + "\n" if text else "")
    sys.stdout.flush()
    return 0


def _review_pending(argv: list[str]) -> int | None:
    """``brv [-C DIR] review pending [--all] [--json]``, with the same start as any command.

    As ``AppContext.project`` does: the config checked, then what killed processes left
    settled (its notes printed at once, so a failure after it, handed to click, loses none).
    """
    directory, args = _directory(argv)
    flags = args[2:]
    if args[:2] != ["review", "pending"] or len(set(flags)) != len(flags) or not set(
            flags) <= {"--all", "--json"}:
        return None
    started = _start(directory)
    if started is None:
        return None
    now, project, config_notes = started
    from brv_vc.services.recovery import settle

    settled = settle(project, now)  # never raises
    for note in config_notes:
        sys.stderr.write(f"brv: warning: {note}\n")
    for line in settled.steps:
        sys.stderr.write(f"brv: note: {line}\n")
    for line in settled.problems:
        sys.stderr.write(f"brv: warning: {line}\n")
    try:
        from brv_vc.services.review import pending

        result = pending(project, all_entries="--all" in flags)
    except Exception:  # the click path reports it (settled already: nothing left to do)
        return None
    if "--json" in flags:
        sys.stdout.write(_json(result))
    else:
        from brv_vc.cli.review_text import pending_text

        sys.stdout.write(pending_text(result) + "\n")
    sys.stdout.flush()
    return 0


def _json(result: Any) -> str:
    """The same document ``cli.render.emit`` prints for ``--json``."""
    import json

    from brv_vc.cli.plain import jsonable, versioned

    return json.dumps(versioned({"ok": True, **jsonable(result)}), indent=2, ensure_ascii=False) + "\n"
