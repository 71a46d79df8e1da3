"""`brv vc add` and `push` use no time: no datetime import, yet BRV_NOW is checked and leftovers settled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def _run(cwd: Path, *argv: str, env: dict[str, str] | None = None
         ) -> tuple[int, bool, str]:
    """(exit code, whether datetime was imported, stderr) of a console-script style process."""
    script = (f"import re, sys; sys.argv = ['brv', *{list(argv)!r}]\n"
              "code = 0\n"
              "try:\n    from brv_vc.cli.entry import main\n    main()\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              "print('datetime' in sys.modules, file=sys.stderr)\n"
              "sys.exit(code)")
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("COVERAGE", "COV_CORE", "BRV_NOW"))}
    full.update(PYTHONPATH=str(REPO), **(env or {}))
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=full,
                          capture_output=True, check=False)
    *said, imported = done.stderr.strip().splitlines()
    return done.returncode, imported == "True", "\n".join(said)


def test_add_and_push_import_no_datetime_commit_does(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="no clock read")
    assert _run(team.alice.root, "vc", "add")[:2] == (0, False)
    assert _run(team.alice.root, "vc", "commit", "-m", "clock")[:2] == (0, True)  # its trailers
    assert _run(team.alice.root, "vc", "push")[:2] == (0, False)
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")


def test_a_bad_brv_now_still_stops_add_as_it_stops_any_command(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="never staged")
    code, _, said = _run(team.alice.root, "vc", "add", env={"BRV_NOW": "yesterday"})
    assert code == 2, said  # click's usage error, as before
    assert "BRV_NOW='yesterday' is not an ISO 8601 timestamp" in said, said
    assert team.alice.git("diff", "--cached", "--name-only").strip() == ""  # nothing changed


def test_add_still_sweeps_what_a_killed_writer_left(team: Team) -> None:  # noqa: F811
    """The clock is read when there is something to settle (the notes carry the time)."""
    dead = subprocess.Popen(["true"])
    dead.wait()
    temps = team.alice.root / ".brv/state/tmp"
    temps.mkdir(parents=True, exist_ok=True)
    (temps / f"{dead.pid}.1.tmp").write_text("half")
    team.alice.edit(ROT, summary="staged after the sweep")
    code, imported, said = _run(team.alice.root, "vc", "add")
    assert (code, imported) == (0, True), said
    assert list(temps.iterdir()) == []
    assert team.alice.git("diff", "--cached", "--name-only").split() == [ROT]
