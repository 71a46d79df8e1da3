"""The ``brv`` entry point: a lazy command group and the one error boundary.

Commands are imported only when run, so ``brv search`` does not pay for the imports of
``brv vc``. Exit codes: 0 ok, 1 domain error, 2 usage, 3 internal bug, 130 interrupted.
"""

from __future__ import annotations

import json
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

import click

from brv_vc import __version__, environment
from brv_vc.cli.plain import versioned
from brv_vc.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, BrvError, FormatError

# name -> "module:attribute"; one module per command group (STYLE).
COMMANDS: dict[str, str] = {
    "init": "brv_vc.cli.init_cmd:init",
    "about": "brv_vc.cli.about_cmd:about",
    "hooks": "brv_vc.cli.hooks_cmd:hooks",
    "hook-impl": "brv_vc.cli.hooks_cmd:hook_impl",
    "curate": "brv_vc.cli.curate_cmd:curate",
    "tree": "brv_vc.cli.tree_cmd:tree",
    "dehydrate": "brv_vc.cli.hydrate_cmd:dehydrate",
    "demo": "brv_vc.cli.demo_cmd:demo",
    "dream": "brv_vc.cli.dream_cmd:dream",
    "export": "brv_vc.cli.export_cmd:export_cmd",
    "hydrate": "brv_vc.cli.hydrate_cmd:hydrate",
    "archive": "brv_vc.cli.archive_cmd:archive_cmd",
    "brain": "brv_vc.cli.brain_cmd:brain",
    "manifest": "brv_vc.cli.manifest_cmd:manifest_cmd",
    "mcp": "brv_vc.mcp.command:mcp",
    "restore": "brv_vc.cli.archive_cmd:restore_cmd",
    "review": "brv_vc.cli.review_cmd:review",
    "summarize": "brv_vc.cli.summarize_cmd:summarize_cmd",
    "ui": "brv_vc.web.command:ui",
    "merge-driver": "brv_vc.cli.vc.diffs:merge_driver",
    "vc": "brv_vc.cli.vc.group:vc",
    "import": "brv_vc.cli.import_cmd:import_cmd",
    "index": "brv_vc.cli.index_cmd:index",
    "llm": "brv_vc.cli.llm_cmd:llm",
    "query": "brv_vc.cli.query_cmd:query",
    "relations": "brv_vc.cli.show_cmd:relations",
    "search": "brv_vc.cli.search_cmd:search",
    "show": "brv_vc.cli.show_cmd:show",
    "stale": "brv_vc.cli.stale_cmd:stale",
    "stats": "brv_vc.cli.hydrate_cmd:stats",
    "validate": "brv_vc.cli.validate_cmd:validate",
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The names in ``COMMANDS``, sorted, without importing any command."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """Imports the module of ``cmd_name`` only now, so a run loads just its own command."""
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, _, attr = target.partition(":")
        command: click.Command = getattr(import_module(module), attr)
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Suggests the nearest command for a typo (``brv serach``), as ``brv vc`` does."""
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-"):
            import difflib

            visible = [c for c in COMMANDS if c not in _HIDDEN]
            close = difflib.get_close_matches(name, visible, n=1)
            ctx.fail(f"No such command {name!r}." + (f" Did you mean {close[0]!r}?" if close else ""))
        return super().resolve_command(ctx, args)


# Not offered as "did you mean" (internal commands git and the hooks call).
_HIDDEN = frozenset({"hook-impl", "merge-driver"})


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "-C",
    "directory",
    metavar="DIR",
    help="Run as if brv was started in DIR (like git -C).",
)
@click.version_option(__version__, prog_name="brv")
@click.pass_context
def cli(ctx: click.Context, directory: str | None) -> None:
    """brv: a git-native memory for software teams and their AI coding agents.

    Knowledge lives as markdown in .brv/context-tree/ (domain/topic/entry.md), is curated
    through structured operations, answered in milliseconds without an LLM, and shared
    through plain git.

    \b
    Example:
      brv init
      brv curate add auth/jwt --title "Token rotation" --content "Refresh tokens are single-use."
      brv query "how are refresh tokens rotated?"
    """
    from brv_vc.cli.context import make_context

    ctx.obj = make_context(directory)


def _wants_json(argv: list[str]) -> bool:
    """``--json``, or ``--format json`` (``vc diff``: the same switch, the same error document)."""
    from itertools import pairwise

    pairs = pairwise(argv)
    return "--json" in argv or "--format=json" in argv or ("--format", "json") in pairs


def _report_usage(usage: click.ClickException, as_json: bool) -> None:
    """A click usage error: its usual text on stderr, or the ``--json`` error document."""
    if not as_json:
        usage.show()
        return
    error = {"code": "usage", "message": usage.format_message()}
    ctx = getattr(usage, "ctx", None)
    if ctx is not None:
        error["hint"] = f"see '{ctx.command_path} --help'"
    click.echo(json.dumps(versioned({"ok": False, "error": error}), indent=2, ensure_ascii=False))


def _report_error(error: BrvError, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps(versioned({"ok": False, "error": error.to_dict()}), indent=2, ensure_ascii=False))
        return
    lines = [f"brv: error: {error.message}"]
    if error.file:
        lines.append(f"  file: {error.file}")
    if error.key:
        lines.append(f"  key: {error.key}")
    if error.hint:
        lines.append(f"hint: {error.hint}")
    click.echo("\n".join(lines), err=True)


def _log_internal(exc: BaseException) -> Path:
    # imported here: only a crash needs them, and every run would pay for them (vc status)
    import tempfile
    import traceback

    folder = Path(environment.get(environment.LOG_DIR) or tempfile.gettempdir())
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "brv-crash.log"
    from brv_vc.scrub import scrub  # the log is shared in bug reports: no credential in it

    with log.open("a", encoding="utf-8", errors="backslashreplace") as handle:
        handle.write(scrub(f"brv {__version__} {' '.join(sys.argv)}\n"))
        handle.write(scrub("".join(traceback.format_exception(exc))))
        handle.write("\n")
    return log


def _project_root(args: list[str]) -> Path | None:
    """The project folder of this run, to name paths relative to it (None when unknown)."""
    try:
        from brv_vc.tree.project import find_project

        start = Path(args[1]) if args[:1] == ["-C"] and len(args) > 1 else Path.cwd()
        return find_project(start.resolve()).root
    except Exception:  # only for shorter messages
        return None


def _refuse_undecodable(args: list[str]) -> None:
    """Refuses an argument whose bytes are not UTF-8 (Python holds them as lone surrogates).

    Written into an entry or a log they crashed the write (exit 3); brv's text is UTF-8.
    """
    for arg in args:
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            shown = arg.encode("utf-8", "backslashreplace").decode("ascii", "replace")
            raise FormatError(
                f"the argument '{shown}' is not valid UTF-8 text; nothing was done",
                hint="brv reads text, paths and options as UTF-8: convert it first "
                "(for example with iconv -f latin1 -t utf-8)",
            ) from None


def main(argv: list[str] | None = None) -> Any:
    """Runs ``brv`` and exits with the documented code.

    Everything it prints goes through ``cli/inert.py``: no control character from an entry,
    a commit or a remote reaches the terminal as itself.
    """
    from brv_vc.cli.inert import inert_streams

    with inert_streams():
        _main(argv)


def _main(argv: list[str] | None) -> Any:
    args = list(sys.argv[1:] if argv is None else argv)
    as_json = _wants_json(args)
    from brv_vc.cli.index_notice import install

    install()  # a long build of a missing index shows a counter on a terminal
    try:
        _refuse_undecodable(args)
        # Without standalone mode click *returns* the code of ctx.exit(n) instead of raising.
        code = cli.main(args=args, prog_name="brv", standalone_mode=False)
    except click.exceptions.Exit as done:
        sys.exit(done.exit_code)
    except click.ClickException as usage:
        _report_usage(usage, as_json)
        sys.exit(usage.exit_code)
    except click.exceptions.Abort:
        sys.exit(report_failure(KeyboardInterrupt(), as_json, args))
    except (BrvError, KeyboardInterrupt, Exception) as exc:
        sys.exit(report_failure(exc, as_json, args))
    sys.exit(code if isinstance(code, int) else 0)


def report_failure(exc: BaseException, as_json: bool, args: list[str]) -> int:
    """Reports a command's failure as the CLI does; its exit code.

    The one error boundary, shared with the click-free fast path (``cli/fast.py``): a
    domain error with its hint, an interruption, a full or read-only disk, else a bug in
    brv (its traceback logged).
    """
    if isinstance(exc, BrvError):
        _report_error(exc, as_json)
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        click.echo("brv: interrupted", err=True)
        return EXIT_INTERRUPTED
    from brv_vc.tree.diskerrors import disk_error

    disk = disk_error(exc, _project_root(args))  # a full or read-only disk is no bug
    if disk is not None:
        _report_error(disk, as_json)
        return disk.exit_code
    log = _log_internal(exc)
    click.echo(
        f"brv: internal error: {type(exc).__name__}: {exc}\n"
        f"This is a bug in brv; the traceback was written to {log}",
        err=True,
    )
    return EXIT_INTERNAL
