"""What every command receives: the folder it runs in and the clock (the composition root)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import click

from brv_vc import environment
from brv_vc.cli.start import begin, open_project
from brv_vc.clock import parse_iso, utcnow
from brv_vc.errors import UsageError
from brv_vc.tree.project import Project


@dataclass
class AppContext:
    """Per-invocation settings, read once at the entry point."""

    cwd: Path
    now: datetime = field(default_factory=utcnow)

    def project(self) -> Project:
        """The project holding the working folder, its settings checked.

        Raises:
            NotInitializedError: no project here.
            FormatError: .brv/config.yaml is invalid, or a part of .brv/ has the wrong kind.
        """
        project, warnings = open_project(self.cwd)
        begin(project, self.now, warnings, say)  # the fast paths' start too (cli/start.py)
        return project


def make_context(directory: str | None) -> AppContext:
    """Builds the context from ``-C DIR`` and ``BRV_NOW`` (a fixed clock for reproducible runs).

    Raises:
        UsageError: ``BRV_NOW`` is not an ISO 8601 timestamp, or ``DIR`` is not a folder.
    """
    now = utcnow()
    fixed = environment.now_text()
    if fixed:
        try:
            now = parse_iso(fixed)
        except ValueError:
            raise UsageError(
                f"BRV_NOW={fixed!r} is not an ISO 8601 timestamp",
                hint="unset it, or set it like BRV_NOW=2025-03-18T10:00:00Z",
            ) from None
    cwd = Path(directory).resolve() if directory else Path.cwd()
    if not cwd.is_dir():
        raise UsageError(f"-C {directory}: no such folder")
    return AppContext(cwd=cwd, now=now)


def say(line: str) -> None:
    """Says one line of a command's start or end on stderr (``cli/start.py``)."""
    click.echo(line, err=True)


pass_app = click.make_pass_decorator(AppContext)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
