"""``brv dream``: run, detach, cancel, undo and read logs; ``scan`` / ``apply`` for agents."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.dream_text import dream_text, logs_text, scan_text, undo_text
from brv_vc.cli.inert import raw_stream
from brv_vc.cli.input_files import read_source
from brv_vc.cli.plain import jsonable, versioned
from brv_vc.cli.render import emit, stderr_is_tty, warn
from brv_vc.errors import EXIT_INTERRUPTED, UsageError
from brv_vc.format.entry import decode
from brv_vc.services import dream as svc
from brv_vc.tree.config import load_config
from brv_vc.tree.llm_settings import configured_llm


def _budget(app: AppContext, given: float | None) -> float:
    if given is not None:
        return given
    for key, value in load_config(app.project()).raw:
        if key == "dream" and isinstance(value, dict) and "budget_seconds" in value:
            return float(value["budget_seconds"])
    return svc.DEFAULT_BUDGET


class _Interrupts:
    """Ctrl-C once: ask the dream to stop after its current operation; twice: exit 130.

    Why not raise KeyboardInterrupt the second time: it lands anywhere, inside a SQLite
    transaction too. Every file is written atomically, so leaving at once is safe: the lock
    names a dead process (reclaimed) and the log says processing (the next dream marks it
    partial).
    """

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.asked:
            click.echo("brv: interrupted", err=True)
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)
        self.asked = True
        click.echo("Cancelling task... (Ctrl-C again to force exit)", err=True)


def _bar(phase: str, done: int, total: int) -> None:
    width = 24
    filled = width * done // max(total, 1)
    end = "\n" if done == total else ""
    click.echo(f"\r{phase:<12} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}",
               file=raw_stream(sys.stderr), nl=False)  # \r: a bar, not an escape


def _run(app: AppContext, force: bool, budget: float | None, as_json: bool, dream_id: str | None,
         decisions: list[dict[str, Any]] | None = None, trigger: str = "cli",
         max_proposals: int | None = None) -> None:
    project = app.project()
    stop = _Interrupts()
    previous = signal.signal(signal.SIGINT, stop)
    try:
        result = svc.dream(project, app.now, force=force, budget=_budget(app, budget),
                           should_stop=lambda: stop.asked, decisions=decisions,
                           progress=_bar if stderr_is_tty() and not as_json else None,
                           dream_id=dream_id, trigger=trigger,
                           llm=configured_llm(project) if decisions is None else None,
                           max_proposals=max_proposals)
    finally:
        signal.signal(signal.SIGINT, previous)
    for problem in result.problems:
        warn(problem)
    failed = [op for op in result.operations if op.get("status") == "failed"]
    if decisions is None or not failed:
        if as_json:  # the operations as they are: plain JSON values already, no copy
            _stream(versioned({"ok": True, **jsonable(replace(result, operations=())),
                               "operations": result.operations}))
        else:
            emit(result, as_json, dream_text)
        return
    # an agent's decision that failed is a failed command (exit 1), as a failed curate op is
    first = failed[0]
    error = {"code": "decisions_failed",
             "message": f"{len(failed)} of {len(decisions)} decision(s) failed (first: "
                        f"{first.get('action')}: {first.get('message')})",
             "hint": "see each operation's message; the others were applied ('brv dream --undo' "
                     "reverts them)"}
    if as_json:
        click.echo(json.dumps(versioned({"ok": False, **jsonable(result), "error": error}),
                              indent=2, ensure_ascii=False))
    else:
        emit(result, as_json, dream_text)
        click.echo(f"brv: error: {error['message']}\nhint: {error['hint']}", err=True)
    raise click.exceptions.Exit(1)


def _detach(app: AppContext, force: bool, budget: float | None, as_json: bool,
            max_proposals: int | None) -> None:
    project = app.project()
    dream_id = svc.new_id()
    out = project.state / "dream-log" / f"{dream_id}.out"
    out.parent.mkdir(parents=True, exist_ok=True)
    args = [sys.executable, "-m", "brv_vc", "-C", str(project.root), "dream", "--id", dream_id,
            "--json", *(["--force"] if force else []),
            *(["--budget", str(budget)] if budget is not None else []),
            *(["--max-proposals", str(max_proposals)] if max_proposals is not None else [])]
    with open(out, "wb") as sink:
        child = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
    emit({"id": dream_id, "pid": child.pid, "output": str(out)}, as_json,
         lambda r: f"Dream started in the background: {r['id']} (pid {r['pid']})\n"
                   f"stop it with: brv dream --cancel {r['id']}")


@click.group(invoke_without_command=True)
@click.option("--force", "-f", is_flag=True,
              help="Skip the time, activity and queue gates (never the lock).")
@click.option("--detach", is_flag=True, help="Run in a background process and print its id.")
@click.option("--cancel", "cancel_id", metavar="ID", help="Stop a running dream (keeps its work).")
@click.option("--undo", "undo_id", is_flag=False, flag_value="", default=None, metavar="[ID]",
              help="Revert the last dream byte for byte.")
@click.option("--log", "log_id", is_flag=False, flag_value="", default=None, metavar="[ID]",
              help="List the dream logs, or print one.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Time budget (default: dream.budget_seconds in config.yaml, else 300).")
@click.option("--max-proposals", type=click.IntRange(min=1), metavar="N",
              help="With review on: changes queued for review per dream, most confident "
                   "first; the rest wait for the next dream (default: dream.max_proposals in "
                   "config.yaml, else 20).")
@click.option("--id", "dream_id", hidden=True)
@json_option
@click.pass_context
def dream(ctx: click.Context, force: bool, detach: bool, cancel_id: str | None,
          undo_id: str | None, log_id: str | None, budget: float | None,
          max_proposals: int | None, dream_id: str | None, as_json: bool) -> None:
    """Consolidate, synthesize and prune the context tree (seed 001), reviewably.

    Runs when 12 hours and 3 curations have passed since the last dream and no
    summary work is queued (--force skips those three gates, never the lock). Every
    change is logged with backups; with review enabled, merges, archives and
    low-confidence changes wait in 'brv review pending', at most 20 a dream (most
    confident first; the rest wait for the next dream). Ctrl-C once stops after the
    current operation; twice exits at once (130).

    \b
    Example:
      brv dream --force
      brv dream --log
      brv dream --undo
      brv dream --detach && brv dream --cancel drm-1739700001000
    """
    if ctx.invoked_subcommand is not None:
        return
    app = ctx.find_object(AppContext)
    assert app is not None
    chosen = [name for name, on in (("--detach", detach), ("--cancel", cancel_id is not None),
                                    ("--undo", undo_id is not None), ("--log", log_id is not None))
              if on]
    if len(chosen) > 1:
        raise UsageError(f"{' and '.join(chosen)} cannot be combined",
                         hint="give one of --detach, --cancel, --undo, --log")
    if cancel_id is not None:
        pid = svc.cancel(app.project(), cancel_id)
        emit({"id": cancel_id, "pid": pid, "cancelled": True}, as_json,
             lambda r: f"Cancelling dream {r['id']} (pid {r['pid']}); its finished work is kept")
    elif undo_id is not None:
        emit(svc.undo(app.project(), app.now, undo_id or None), as_json, undo_text)
    elif log_id is not None:
        emit(svc.logs(app.project(), log_id or None), as_json, logs_text)
    elif detach:
        _detach(app, force, budget, as_json, max_proposals)
    else:
        _run(app, force, budget, as_json, dream_id, max_proposals=max_proposals)


@dream.command("scan")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Time budget (default as brv dream).")
@json_option
@pass_app
def scan_cmd(app: AppContext, budget: float | None, as_json: bool) -> None:
    """Hand an agent the dream's candidates: entries' text and the decisions allowed.

    Nothing changes. Answer with 'brv dream apply' (same operation shapes as the
    'suggested' field of each candidate).

    \b
    Example:
      brv dream scan --json > candidates.json
    """
    found = svc.scan(app.project(), app.now, budget=_budget(app, budget))
    if not as_json:
        emit(found, as_json, scan_text)
        return
    payload = versioned({"ok": True, **jsonable(found)})
    del found
    _stream(payload)


def _stream(payload: dict[str, Any]) -> None:
    """Prints a --json answer as it is encoded (the text ``json.dumps`` gives, indented).

    Why: a first scan at 100,000 entries hands ~80,000 candidates, a first dream's answer
    holds 100,000 operations; as one string, built from its pieces, the answer took the
    process from ~200 MB to ~440 MB (issues 24 and 37: <= 300 MB).
    """
    pieces: list[str] = []  # a write per piece costs ~25 s for 80,000 candidates
    for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(payload):
        pieces.append(piece)
        if len(pieces) == 8192:
            sys.stdout.write("".join(pieces))
            pieces.clear()
    sys.stdout.write("".join(pieces) + "\n")


@dream.command("apply")
@click.argument("source", metavar="FILE|-")
@click.option("--force", "-f", is_flag=True, help="Skip the time, activity and queue gates.")
@click.option("--budget", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Time budget (default as brv dream).")
@json_option
@pass_app
def apply_cmd(app: AppContext, source: str, force: bool, budget: float | None,
              as_json: bool) -> None:
    """Run an agent's dream decisions through the same gates, log, review and undo.

    FILE (or - for stdin) holds a JSON array of operations, the shapes 'brv dream
    scan --json' suggests. Malformed input changes nothing (exit 1).

    \b
    Example:
      brv dream apply decisions.json --force
      echo '[{"operation":"prune","action":"KEEP","file":"a/b/c.md","reason":"still used"}]' | brv dream apply - --force
    """
    name = "<stdin>" if source == "-" else source
    # size capped and FIFOs/devices refused before reading (/dev/zero once grew to 5 GB)
    text = decode(read_source(source, "decisions"), file=name, limit=None)
    decisions = svc.load_decisions(text, file=name)
    _run(app, force, budget, as_json, None, decisions, trigger="agent")
