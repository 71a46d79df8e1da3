"""Output: JSON for agents (``--json``), text for people. Services never print."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

import click

from brv_vc.cli import plain
from brv_vc.cli.plain import jsonable

__all__ = ["dumps", "emit", "jsonable", "stderr_is_tty", "warn"]


def dumps(value: Any) -> str:
    """Returns ``value`` as indented JSON."""
    return json.dumps(jsonable(value), indent=2, ensure_ascii=False)


def emit(result: Any, as_json: bool, text: Callable[[Any], str]) -> None:
    """Prints ``result`` as JSON (``{"ok": true, ...}``) or as the text ``text`` renders."""
    plain.emit(result, as_json, text, click.echo)


def warn(message: str) -> None:
    """Prints a warning line to stderr."""
    click.echo(f"brv: warning: {message}", err=True)


def stderr_is_tty() -> bool:
    """True when progress bars may be drawn."""
    return sys.stderr.isatty()
