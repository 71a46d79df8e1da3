"""A `brv vc` add, commit, push or pull process runs no garbage collection (cli/entry.YOUNG)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def _last_line(script: str, cwd: Path) -> str:
    """The last stderr line of ``script`` run by a fresh Python that imports this checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env["PYTHONPATH"] = str(REPO)
    # compiling a module without its .pyc (PYTHONDONTWRITEBYTECODE, a fresh checkout) collects
    # on its own: what is counted is the command's work, so the bytecode is there first
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO / "brv_vc")],
                   env=env, capture_output=True, check=False)
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=env,
                          capture_output=True, check=False)
    return done.stderr.strip().splitlines()[-1]


def collections(cwd: Path, *argv: str) -> tuple[int, int]:
    """(exit code, collections run once brv's entry point started), console-script style."""
    script = (f"import gc, re, sys; sys.argv = ['brv', *{list(argv)!r}]\n"
              "before = sum(s['collections'] for s in gc.get_stats())\n"
              "code = 0\n"
              "try:\n    from brv_vc.cli.entry import main\n    main()\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              "after = sum(s['collections'] for s in gc.get_stats())\n"
              "print(code, after - before, file=sys.stderr)")
    code, ran = _last_line(script, cwd).split()
    return int(code), int(ran)


def test_the_four_sync_steps_collect_nothing(team: Team) -> None:  # noqa: F811
    """Python's default (700 objects) ran 6-15 collections in each; none frees anything here."""
    team.alice.edit(ROT, summary="changed without a collection")
    for cwd, args in ((team.alice.root, ("vc", "add")),
                      (team.alice.root, ("vc", "commit", "-m", "change")),
                      (team.alice.root, ("vc", "push")), (team.bob.root, ("vc", "pull"))):
        assert collections(cwd, *args) == (0, 0), args
    assert team.bob.text(ROT) == team.alice.text(ROT)  # the steps did their work


def test_a_command_past_the_fast_paths_collects_as_python_does(tmp_path: Path) -> None:
    """A long process (the MCP server, dreaming: click commands) gets Python's thresholds back."""
    script = ("import gc, sys; sys.argv = ['brv', 'hooks', 'status', '--help']\n"
              "default = gc.get_threshold()\n"
              "from brv_vc.cli.entry import main\n"
              "try:\n    main()\n"
              "except SystemExit:\n    pass\n"
              "print(gc.get_threshold() == default, file=sys.stderr)")
    assert _last_line(script, tmp_path) == "True"
