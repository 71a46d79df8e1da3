"""A click-free fast path: ``search``, ``query``, ``vc status``, ``review pending``, ``hook-impl``.

Agents call the first two in tight loops, the third is budgeted against ``git status``,
the fourth is polled by agents and hooks (issue 12: under 1 s over 1,000 entries) and git
runs the last on every commit, merge and push (DESIGN.md: +150 ms over git): a cold
process then does not pay ~20-30 ms for importing click and dispatching through it (~60 ms
of CPU for ``review pending``, a fifth of it).

It understands exactly the documented options; anything else (``--help``, an unknown or
malformed option, a project or a config it cannot open) returns None before anything is said
and the regular click entry point runs instead. Once started, a command starts and ends as
click's does (``cli/start.py``: config warnings, the recovery of what killed writers left,
the hooks notice after ``vc status``), and its failure is reported by the CLI's one error
boundary (``cli.main.report_failure``), never by running it again through click.
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
    if options.get("max_iterations") is not None:
        from brv_vc.services.query import MAX_ITERATIONS  # click's IntRange: one bound

        if not 1 <= options["max_iterations"] <= MAX_ITERATIONS:
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
        from brv_vc import environment
        from brv_vc.clock import parse_iso, utcnow

        fixed = environment.now_text()
        now = parse_iso(fixed) if fixed else utcnow()
    except Exception:
        return None
    opened = _open(directory, scan=scan)
    return None if opened is None else (now, *opened)


def untimed_start(directory: str | None) -> tuple[datetime | None, Project,
                                                  tuple[str, ...]] | None:
    """:func:`_start` for a command that uses no time (``vc add``, ``push``, ``fetch``).

    now is None unless ``BRV_NOW`` is set (checked as every command does), and
    :func:`_settle` reads the clock only when there is something to settle: ``datetime``
    (~1.3 ms of CPU) is not imported.
    """
    from brv_vc import environment

    now = None
    fixed = environment.now_text()
    if fixed:
        try:
            from brv_vc.clock import parse_iso

            now = parse_iso(fixed)
        except Exception:
            return None
    opened = _open(directory)
    return None if opened is None else (now, *opened)


def _open(directory: str | None, *, scan: bool = False) -> tuple[Project, tuple[str, ...]] | None:
    """(the project, its config warnings) for :func:`_start`; None when it fails."""
    try:
        from pathlib import Path

        from brv_vc.cli.start import open_project

        return open_project(Path(directory).resolve() if directory else Path.cwd(), scan=scan)
    except Exception:
        return None


def _say(line: str) -> None:
    """Writes one line of notes or warnings to stderr (``cli/start.py``'s ``say``)."""
    sys.stderr.write(line + "\n")


def try_fast(argv: list[str]) -> int | None:
    """Runs ``search``/``query``/``vc status`` without click when it can.

    Args:
        argv: the arguments after the program name.

    Returns:
        The exit code, or None: "let the click CLI handle it".
    """
    if argv[0] == "hook-impl":
        return _hook(argv[1:])
    if not all(arg.isascii() for arg in argv):
        try:
            "".join(argv).encode("utf-8")
        except UnicodeEncodeError:  # bytes that are not UTF-8: click's path refuses them
            return None
    if "vc" in argv[:3]:
        code = _vc_status(argv)
        if code is None:
            from brv_vc.cli.fast_vc import run

            directory, args = _directory(argv)
            code = run(args, directory, _start, untimed_start)
        return code
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
    from brv_vc.cli.start import begin

    begin(project, now, config_notes, _say)  # as click's start: said once, at once
    from brv_vc.cli.index_notice import install

    install()  # a long build of a missing index shows a counter on a terminal
    try:
        if command == "search":
            from brv_vc.cli.retrieval_text import search_text as render
            from brv_vc.services.query import search_tree

            result: Any = search_tree(project, text, now=now, **options)
            warnings = list(result.notes)
        else:
            from brv_vc.cli.retrieval_text import query_text as render
            from brv_vc.services.query import query_tree

            result = query_tree(project, text, now=now, **options)
            warnings = [*result.notes, *([result.error] if result.error else [])]
    except (Exception, KeyboardInterrupt) as exc:  # started: the one error boundary reports
        return _failed(exc, as_json, argv)
    for note in warnings:
        sys.stderr.write(f"brv: warning: {note}\n")
    sys.stdout.write(_json(result) if as_json else render(result) + "\n")
    sys.stdout.flush()
    return 0


def _failed(exc: BaseException, as_json: bool, argv: list[str]) -> int:
    """Reports a started command's failure through the CLI's one error boundary.

    Never by running it again through click: its start (config warnings, settled leftovers)
    was said already, and would be said twice.
    """
    from brv_vc.cli.main import report_failure

    return report_failure(exc, as_json, argv)


def _vc_status(argv: list[str]) -> int | None:
    """``brv [-C DIR] vc status [--json]``, adopting the ``git status`` already running.

    ``cli/entry.py`` started it before importing anything else.
    """
    directory, args = _directory(argv)
    if args not in (["vc", "status"], ["vc", "status", "--json"]):
        return None
    from brv_vc.services.vc import prepare, status  # imported while git status runs

    started = untimed_start(directory)
    if started is None:  # nothing said yet: click runs it and reports
        return None
    now, project, config_notes = started
    from brv_vc.cli.start import begin, hooks_notice

    begin(project, now, config_notes, _say)
    as_json = args[-1] == "--json"
    try:
        report = status(prepare(project))
    except (Exception, KeyboardInterrupt) as exc:  # started: the one error boundary reports
        return _failed(exc, as_json, argv)
    if as_json:
        sys.stdout.write(_json(report))
    else:
        from brv_vc.cli.vc.render import status_text

        text = status_text(report)
        sys.stdout.write(text + "\n" if text else "")
    sys.stdout.flush()
    hooks_notice(project.root, _say)  # as after every click vc command
    return 0


def _hook(args: list[str]) -> int | None:
    """``brv hook-impl NAME [ARGS...]`` as the click command runs it, without click.

    Its start and end are ``cli/hook_run.py``'s, as for click. A hook the running brv command
    does itself (``hook_env.REFRESHING_ENV``: pull, merge and checkout run the post-change
    step in process) returns before the services are imported. ``--json``, ``--help``, an
    unknown hook name or a bad ``BRV_NOW`` go to click, which reports.
    """
    if not args or "--json" in args or "--help" in args:
        return None
    from brv_vc.cli import hook_run
    from brv_vc.services.vc import hook_env  # no imports of its own

    if args[0] not in hook_env.HOOKS:  # click reports another name
        return None
    from brv_vc import environment
    from brv_vc.clock import parse_iso, utcnow

    try:
        now_text = environment.now_text()
        now = parse_iso(now_text) if now_text else utcnow()
    except ValueError:
        return None
    begun = hook_run.start(args[0], tuple(args[1:]), lambda text: sys.stderr.write(text + "\n"))
    if isinstance(begun, int):
        return begun
    name, env = begun.name, begun.env
    if hook_env.done_by_command(name, env.refreshing):  # before the services are imported
        return hook_run.end(begun, False)
    index_file = os.path.abspath(env.index_file) if env.index_file else None
    if name == "commit-msg":
        from brv_vc.services.vc import nothing_to_trail

        if nothing_to_trail(index_file):  # pre-commit found no archived deletion
            return hook_run.end(begun, False)
    from pathlib import Path

    from brv_vc.services.vc import run_hook

    try:
        run = run_hook(Path.cwd(), name, begun.args, now, stdin=begun.stdin,
                       index_file=index_file, include_pending=env.include_pending,
                       push_checked=env.push_checked, commit_checked=env.commit_checked,
                       refreshing=env.refreshing)
    except Exception as exc:  # fail open: a bug in brv must not block or break git
        sys.stderr.write(f"brv: warning: the {name} hook failed ({type(exc).__name__}: {exc}); "
                         "git went ahead without it. This is a bug in brv; please report it.\n")
        return hook_run.end(begun, False)
    for warning in run.warnings:
        sys.stderr.write(f"brv: warning: {warning}\n")
    for note in run.notes:
        sys.stderr.write(f"brv: note: {note}\n")
    if name == "post-checkout":  # a clone's first checkout too: what it lacks, said once
        from brv_vc.cli.start import hooks_notice

        hooks_notice(Path.cwd(), _say)
    if run.blocked:
        from brv_vc.cli.hook_text import blocked_text

        sys.stderr.write(blocked_text(run) + "\n")
    return hook_run.end(begun, run.blocked)


def _review_pending(argv: list[str]) -> int | None:
    """``brv [-C DIR] review pending [--all] [--json]``, with the same start as any command.

    As ``AppContext.project`` does (``cli/start.py``): the config checked, then what killed
    processes left settled, said at once.
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
    from brv_vc.cli.start import begin

    begin(project, now, config_notes, _say)
    try:
        from brv_vc.services.review import pending

        result = pending(project, all_entries="--all" in flags)
    except (Exception, KeyboardInterrupt) as exc:  # started: the one error boundary reports
        return _failed(exc, "--json" in flags, argv)
    if "--json" in flags:
        sys.stdout.write(_json(result))
    else:
        from brv_vc.cli.review_text import pending_text

        sys.stdout.write(pending_text(result) + "\n")
    sys.stdout.flush()
    return 0


def _json(result: Any) -> str:
    """The same document ``cli.render.emit`` prints for ``--json`` (``cli.plain.document``)."""
    from brv_vc.cli.plain import document

    return document(result) + "\n"
