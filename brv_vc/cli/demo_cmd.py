"""``brv demo``: the main job end to end in a throwaway project, in a few seconds.

The demo is a list of small step functions (:data:`STEPS`); each prints what it does and the
``brv`` command a person would type. Other areas add their steps (search, query, vc) by
appending a function to ``STEPS`` at the right place.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import click

from brv_vc import environment
from brv_vc.cli.context import AppContext, pass_app
from brv_vc.cli.inert import raw_stream
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
    click.secho(f"\n== {title}", bold=True, file=raw_stream(sys.stdout))
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


def _brv(cwd: Path, *args: str) -> None:
    """Runs a real ``brv`` command in process and lets it print, as a person would see it."""
    from brv_vc.cli.main import cli

    code = cli.main(["-C", str(cwd), *args], prog_name="brv", standalone_mode=False)
    if isinstance(code, int) and code:
        raise BrvError(f"the demo step 'brv {' '.join(args)}' failed; this is a bug in brv")


def step_search(state: DemoState) -> None:
    """Searches the tree: BM25 over the persistent index, no LLM."""
    _say("Search, in milliseconds and without any LLM", 'brv search "refresh token rotation"')
    _brv(state.root, "search", "refresh token rotation")


def step_query(state: DemoState) -> None:
    """Asks a question; the answer names the tier that answered."""
    _say("Ask a question (5 tiers; tiers 3-4 only with an LLM configured)",
         'brv query "how are access tokens signed?"')
    _brv(state.root, "query", "how are access tokens signed?")


def step_show(state: DemoState) -> None:
    """Shows an entry with its backlinks and scoring signals."""
    entry = "authentication/session_management/session_cookies.md"
    _say("An entry with its backlinks and lifecycle signals", f"brv show {entry}")
    _brv(state.root, "show", entry)


def step_share(state: DemoState) -> None:
    """Shares the tree through a git remote with a teammate, who changes it.

    The step ends on the knowledge diff a pull request would carry.
    """
    remote = state.root.parent / f"{state.root.name}-remote.git"
    teammate = state.root.parent / f"{state.root.name}-teammate"
    state.notes["cleanup"] = f"{remote}\n{teammate}"
    _say("Share it over any git remote (here a bare repository on disk)",
         "brv vc init && brv vc add && brv vc commit -m ... && brv vc push -u")
    from brv_vc.vc.git.remote import init

    # the stand-in for GitHub: a bare repository, made through brv's git adapter
    init(remote, "main", bare=True, cwd=state.root.parent)
    _brv(state.root, "vc", "init")
    _brv(state.root, "vc", "add")
    _brv(state.root, "vc", "commit", "-m", "auth: tokens and sessions")
    _brv(state.root, "vc", "remote", "add", "origin", str(remote))
    _brv(state.root, "vc", "push", "-u")

    teammate.mkdir()
    _say("A teammate clones it, and their agent adds knowledge", f"brv vc clone {remote}")
    _brv(teammate, "vc", "clone", str(remote))
    ops = [{"type": "UPDATE", "path": "authentication/jwt_implementation/jwt_token_generation.md",
            "reason": "demo: incident review", "tags": ["auth", "jwt", "security", "incident"],
            "summary": "Token pairs with RS256 signing; a reused refresh token revokes the family"}]
    validate_ops(ops)
    run_batch(Project(teammate), ops, state.now)
    _brv(teammate, "vc", "add")
    _brv(teammate, "vc", "commit", "-m", "auth: reuse revokes the token family")
    _brv(teammate, "vc", "push")

    _say("Back here: pull, and read the change as a pull-request comment would show it",
         "brv vc pull && brv vc diff HEAD~1..HEAD --format markdown")
    _brv(state.root, "vc", "pull")
    _brv(state.root, "vc", "diff", "HEAD~1..HEAD", "--format", "markdown")


STEPS: list[Step] = [
    step_init, step_curate, step_tree, step_show_entry, step_search, step_query, step_show,
    step_share,
]


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
    base = Path(tempfile.mkdtemp(prefix="brv-demo-"))
    folder = base / "project"
    folder.mkdir()
    state = DemoState(root=folder, now=app.now)
    # A fresh machine may have no git identity; the demo's commits get one of their own.
    for role in ("AUTHOR", "COMMITTER"):
        environment.set_default(f"GIT_{role}_NAME", "brv demo")
        environment.set_default(f"GIT_{role}_EMAIL", "demo@brv.invalid")
    try:
        for step in STEPS:
            step(state)
    finally:
        if keep:
            click.echo(f"\nThe demo projects are kept in {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)
    click.echo("\nDemo finished.")
