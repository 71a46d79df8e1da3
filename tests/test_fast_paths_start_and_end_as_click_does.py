"""The click-free fast paths start and end as the click commands do (``cli/start.py``): the
config warnings, the recovery of what a killed writer left, the command's output, then, after a
``brv vc`` command, the notice that brv's commit checks will not run, in the same order, for
``vc status|add|commit|push|fetch|pull`` and ``search`` with the pre-commit shim deleted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Result, brv_process
from vc_helpers import Member, Team, dead_pid, start_team

from brv_vc.tree.store import write_atomic

ROT = "auth/jwt/token_rotation.md"
SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
ENV = {"BRV_NOW": "2026-01-20T00:00:00Z", "GIT_AUTHOR_DATE": "2026-01-20T00:00:00Z",
       "GIT_COMMITTER_DATE": "2026-01-20T00:00:00Z"}
BAD_LLM = "llm:\n  model: 42\n"  # a config warning on every command
STEPS = [("vc", "status"), ("vc", "add"), ("vc", "commit", "-m", "alice: rotation"),
         ("vc", "push"), ("vc", "fetch"), ("vc", "pull"), ("search", "rotation"),
         ("vc", "status", "--json")]


def _leave_an_archive_half_done(member: Member, step: int) -> None:
    """A killed ``brv archive``: its full copy written, the entry not yet removed."""
    rel = f"auth/jwt/left_{step}.md"
    data = (member.tree / ROT).read_bytes()
    write_atomic(member.tree / rel, data)
    write_atomic(member.tree / f"_archived/auth/jwt/left_{step}.full.md", data)
    pending = member.root / ".brv/state/pending"
    pending.mkdir(parents=True, exist_ok=True)
    pid = dead_pid()
    (pending / f"archive-{pid}.json").write_text(
        json.dumps({"path": rel, "kind": "archive", "pid": pid}))


def _prepared(team: Team, step: int) -> Member:
    alice = team.alice
    (alice.root / ".brv/state/hooks-notice").unlink(missing_ok=True)  # said again
    _leave_an_archive_half_done(alice, step)
    return alice


def _shown(result: Result, base: Path) -> tuple[int, str, str]:
    return (result.exit_code, SHA.sub("<sha>", result.stdout.replace(str(base), "<base>")),
            SHA.sub("<sha>", result.stderr.replace(str(base), "<base>")))


@pytest.fixture
def teams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Team, Team]:
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    made = []
    for name in ("fast", "click"):
        (tmp_path / name).mkdir()
        team = start_team(tmp_path / name)
        (team.alice.tree / ".git/hooks/pre-commit").unlink()  # brv's commit checks are off
        config = team.alice.root / ".brv/config.yaml"
        config.write_text(config.read_text() + BAD_LLM)
        made.append(team)
    return made[0], made[1]


def test_each_fast_path_says_what_click_says_in_its_order(
        teams: tuple[Team, Team], tmp_path: Path) -> None:
    fast, slow = teams
    differ = []
    for step, args in enumerate(STEPS):
        for team in teams:
            if args == ("vc", "add"):
                team.alice.edit(ROT, summary="rotated on every use")
            if args == ("vc", "pull"):
                team.bob.ok("vc", "pull")
                team.bob.write("auth/jwt/sessions.md", "Sessions")
                team.bob.sync("bob: sessions")
        said_fast = brv_process(*args, cwd=_prepared(fast, step).root, env=ENV)
        said_slow = _prepared(slow, step).brv(*args)  # click, in process
        shown = _shown(said_fast, tmp_path / "fast")
        if shown != _shown(said_slow, tmp_path / "click"):
            differ.append(args)
            continue
        lines = said_fast.stderr.splitlines()
        assert lines[0].startswith("brv: warning: .brv/config.yaml"), args
        assert lines[1] == f"brv: note: finished the interrupted archive of auth/jwt/left_{step}.md"
        assert ("fix: brv hooks install" in said_fast.stderr) == (args[0] == "vc"), args
        for member in (fast.alice, slow.alice):
            assert not (member.tree / f"auth/jwt/left_{step}.md").exists()  # settled
    assert differ == []
