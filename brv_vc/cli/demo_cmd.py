"""``brv demo``: the main job end to end in a throwaway project, in a few seconds.

The demo is a list of small step functions (:data:`STEPS`); each prints what it does and the
``brv`` command a person would type. Other areas add their steps (search, query, vc) by
appending a function to ``STEPS`` at the right place.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from brv_vc.cli.context import AppContext, pass_app
from brv_vc.cli.tree_cmd import render_tree
from brv_vc.errors import BrvError
from brv_vc.services.curate import run_batch, validate_ops
from brv_vc.services.init import init_project
from brv_vc.services.tree_view import build_tree
from brv_vc.tree.project import Project

DEMO_OPS: list[dict[str, Any]] = [
    {
        "type": "ADD",
        "path": "authentication/jwt_implementation",
        "title": "JWT Token Generation",
        "summary": "Access and refresh token pair generation with RS256 signing and rotation",
        "tags": ["auth", "jwt", "security"],
        "keywords": ["token", "access_token", "refresh_token", "RS256"],
        "related": ["authentication/session_management/session_cookies.md"],
        "rawConcept": {
            "task": "JWT token generation and rotation pattern",
            "files": ["src/auth/jwt.ts", "src/auth/refresh.ts"],
            "flow": "Login -> check credentials -> access token -> refresh token -> store -> reply",
        },
        "narrative": {
            "structure": "Access and refresh tokens are generated as a pair on every login.",
            "rules": [
                "Access tokens expire after 24 hours",
                "Refresh tokens are single-use with rotation",
            ],
        },
        "facts": [
            {
                "subject": "jwt_secret",
                "statement": "Access tokens are signed with RS256",
                "category": "convention",
            },
            {"statement": "Token pairs are stored for revocation tracking", "category": "project"},
        ],
        "reason": "demo: from the login PR",
    },
    {
        "type": "ADD",
        "path": "authentication/session_management",
        "title": "Session Cookies",
        "content": "Sessions use httpOnly cookies that carry the refresh token.",
        "tags": ["auth", "cookies"],
        "reason": "demo: from the security review",
    },
    {
        "type": "UPSERT",
        "path": "authentication/session_management",
        "title": "Session Cookies",
        "facts": [{"statement": "Cookies are SameSite=Strict", "category": "convention"}],
        "reason": "demo: a second agent adds a fact",
    },
]


@dataclass
class DemoState:
    """What the steps share: the throwaway project and the clock."""

    root: Path
    now: datetime
    notes: dict[str, str] = field(default_factory=dict)

    @property
    def project(self) -> Project:
        """The demo project."""
        return Project(self.root)


Step = Callable[[DemoState], None]


def _say(title: str, command: str) -> None:
    click.secho(f"\n== {title}", bold=True)
    click.echo(f"$ {command}")


def step_init(state: DemoState) -> None:
    """Creates the project."""
    _say("Create a project", "brv init")
    result = init_project(state.root)
    click.echo(f"Initialised brv project in {result.root}/.brv")


def step_curate(state: DemoState) -> None:
    """Curates a batch of three operations, as an agent would."""
    _say("An agent curates a batch of operations", "brv curate --ops ops.json")
    validate_ops(DEMO_OPS)
    result = run_batch(state.project, DEMO_OPS, state.now)
    for r in result.applied:
        click.echo(f"{r.status:<8} {r.type:<7} {r.file}  (reason: {r.reason})")
    click.echo(result.summary.text())
    if not result.ok:
        raise BrvError("the demo batch failed; this is a bug in brv")
    state.notes["entry"] = result.applied[0].file


def step_tree(state: DemoState) -> None:
    """Shows the hierarchy."""
    _say("The context tree", "brv tree")
    click.echo(render_tree(build_tree(state.project)))


def step_show_entry(state: DemoState) -> None:
    """Prints one knowledge file as it is stored on disk."""
    entry = state.notes["entry"]
    _say(
        "A knowledge file, as stored (plain markdown, reviewable in git)",
        f"cat .brv/context-tree/{entry}",
    )
    click.echo(state.project.path_of(entry).read_text(encoding="utf-8"), nl=False)


STEPS: list[Step] = [step_init, step_curate, step_tree, step_show_entry]


@click.command()
@click.option("--keep", is_flag=True, help="Keep the demo project and print where it is.")
@pass_app
def demo(app: AppContext, keep: bool) -> None:
    """Run the main job end to end in a temporary project (a few seconds, offline).

    \b
    Example:
      brv demo
      brv demo --keep
    """
    folder = Path(tempfile.mkdtemp(prefix="brv-demo-"))
    state = DemoState(root=folder, now=app.now)
    try:
        for step in STEPS:
            step(state)
    finally:
        if keep:
            click.echo(f"\nThe demo project is kept in {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    click.echo("\nDemo finished.")
