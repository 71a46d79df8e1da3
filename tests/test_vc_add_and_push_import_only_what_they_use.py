"""`brv vc add` and `push` import only what they use: no clock (BRV_NOW still checked), no index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"
# datetime: they use no time (cli.fast.untimed_start); the derived package: they build no
# index; git/cache_tree (with mmap): read by add (its cache-tree says no path is unmerged,
# so no 'git ls-files -u' runs), by commit (the index it names to the hook) and by a hook
UNUSED = ("datetime", "brv_vc.services.derived", "brv_vc.vc.git.cache_tree")
ADD_READS = ["brv_vc.vc.git.cache_tree"]


def _run(cwd: Path, *argv: str, env: dict[str, str] | None = None
         ) -> tuple[int, list[str], str]:
    """(exit code, which of UNUSED it imported, stderr) of a console-script style process."""
    script = (f"import re, sys; sys.argv = ['brv', *{list(argv)!r}]\n"
              "code = 0\n"
              "try:\n    from brv_vc.cli.entry import main\n    main()\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              f"print(','.join(m for m in {UNUSED!r} if m in sys.modules), file=sys.stderr)\n"
              "sys.exit(code)")
    full = {k: v for k, v in os.environ.items()
            if not k.startswith(("COVERAGE", "COV_CORE", "BRV_NOW"))}
    full.update(PYTHONPATH=str(REPO), **(env or {}))
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=full,
                          capture_output=True, check=False)
    *said, imported = done.stderr.rstrip("\n").split("\n")
    return done.returncode, [m for m in imported.split(",") if m], "\n".join(said)


def test_add_and_push_import_neither_commit_does(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="no clock read")
    assert _run(team.alice.root, "vc", "add")[:2] == (0, ADD_READS)
    assert _run(team.alice.root, "vc", "commit", "-m", "clock")[:2] == (0, list(UNUSED))
    assert _run(team.alice.root, "vc", "push")[:2] == (0, [])
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
    assert (code, imported) == (0, ["datetime", *ADD_READS]), said
    assert list(temps.iterdir()) == []
    assert team.alice.git("diff", "--cached", "--name-only").split() == [ROT]
