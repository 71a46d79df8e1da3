"""``brv vc add``, ``commit -m``, ``push``, ``pull`` and ``fetch`` without click (``cli/fast.py``'s kin).

A team runs them on every change, and DESIGN.md budgets add+commit+push and pull at 2x plain
git: importing click (with uuid and platform, ~45 ms of CPU) was a fifth of that budget in
each of the four processes. Only the plain forms are taken here (no remote or branch
argument, no option but ``--json``, ``-m``/``--message`` and ``--include-pending``); anything
else returns None and the click command runs. Once a command has started, its failure is
reported by the CLI's one error boundary (``cli.main.report_failure``, imported only then),
never by running it again through click: a pull or commit may have changed the repository.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


_COMMANDS = ("add", "commit", "push", "pull", "fetch")


def _options(command: str, rest: list[str]) -> dict[str, Any] | None:
    """The options of a plain form of ``command``, or None (click parses the rest)."""
    options: dict[str, Any] = {"json": False, "paths": [], "message": None,
                               "include_pending": False}
    i = 0
    while i < len(rest):
        arg = rest[i]
        if arg == "--json":
            options["json"] = True
        elif command == "commit" and arg in ("-m", "--message") and i + 1 < len(rest):
            if options["message"] is not None:
                return None
            options["message"] = rest[i + 1]
            i += 1
        elif command in ("commit", "push") and arg == "--include-pending":
            options["include_pending"] = True
        elif command == "add" and not arg.startswith("-"):
            options["paths"].append(arg)
        else:
            return None
        i += 1
    if command == "commit" and options["message"] is None:
        return None
    return options


def run(argv: list[str], directory: str | None, start: Callable[[str | None], Any],
        untimed: Callable[[str | None], Any]) -> int | None:
    """Runs ``vc add|commit|push|pull|fetch`` (``argv`` after ``-C DIR``); None: click does it.

    Args:
        argv: ``["vc", command, ...]``.
        directory: the ``-C`` folder, or None.
        start: ``cli.fast._start`` (the clock, the project, its config warnings).
        untimed: ``cli.fast.untimed_start``, for the commands that use no time.
    """
    if len(argv) < 2 or argv[0] != "vc" or argv[1] not in _COMMANDS:
        return None
    command = argv[1]
    options = _options(command, argv[2:])
    if options is None:
        return None
    started = (start if command in ("commit", "pull") else untimed)(directory)
    if started is None:
        return None
    now, project, config_notes = started
    from brv_vc.cli.start import begin, hooks_notice

    begin(project, now, config_notes, _say)  # click's start (cli/start.py)
    try:
        if command in ("commit", "pull"):  # the two that refresh the index (add, push: ~0.4 ms)
            from brv_vc.cli.index_notice import install

            install()  # a long build of a missing index shows a counter on a terminal
        from brv_vc.cli.vc import render as txt
        from brv_vc.services import vc

        repo = vc.prepare(project)
        if command == "add":
            from pathlib import Path

            cwd = Path(directory).resolve() if directory else Path.cwd()
            result: Any = vc.add(repo, tuple(options["paths"]), cwd)
            for message in txt.add_warnings(result):
                sys.stderr.write(f"brv: warning: {message}\n")
            code = _emit(result, options["json"], txt.add_text)
        elif command == "commit":
            result = vc.commit(repo, options["message"],
                               include_pending=options["include_pending"], now=now)
            code = _emit(result, options["json"], txt.commit_text)
        elif command == "push":
            result = vc.push(repo, None, None, set_upstream=False,
                             include_pending=options["include_pending"])
            code = _emit(result, options["json"], txt.push_text)
        elif command == "fetch":
            code = _emit(vc.fetch(repo), options["json"], txt.fetch_text)
        else:
            result = vc.pull(project, repo, now, None, None, allow_unrelated=False)
            if result.conflicts:  # as 'emit_sync': the click path's rendering of a conflict
                from contextlib import suppress

                from brv_vc.cli.vc.options import emit_sync

                with suppress(Exception):  # click's Exit(1), raised after printing
                    emit_sync(result, options["json"])
                return 1  # click's Exit(1): no result callback, no notice
            code = _emit(result, options["json"], txt.sync_text)
    except (Exception, KeyboardInterrupt) as exc:  # the CLI's one error boundary reports it
        from brv_vc.cli.main import report_failure

        return report_failure(exc, options["json"], argv)
    hooks_notice(project.root, _say)  # click's vc group says it after a command that succeeded
    return code


def _say(line: str) -> None:
    """Writes one line of notes or warnings to stderr (``cli/start.py``'s ``say``)."""
    sys.stderr.write(line + "\n")


def _emit(result: Any, as_json: bool, text: Callable[[Any], str]) -> int:
    """Prints ``result`` as ``cli.render.emit`` does (``cli.plain.emit``); exit code 0."""
    from brv_vc.cli.plain import emit

    emit(result, as_json, text)
    sys.stdout.flush()
    return 0
