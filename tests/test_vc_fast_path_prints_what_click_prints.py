"""`brv vc add|commit|push|pull` skip click in a real process; they print what click prints."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import Result, brv_process
from vc_helpers import Member, Team, start_team

from brv_vc.cli.fast_vc import _options

ROT = "auth/jwt/token_rotation.md"
SHA = re.compile(r"\b[0-9a-f]{7,40}\b")
# the same commit ids in both teams: fixed dates
ENV = {"BRV_NOW": "2026-01-20T00:00:00Z", "GIT_AUTHOR_DATE": "2026-01-20T00:00:00Z",
       "GIT_COMMITTER_DATE": "2026-01-20T00:00:00Z"}


def _fast(member: Member, *args: str) -> Result:
    return brv_process(*args, cwd=member.root, env=ENV)


def _same(fast: Result, slow: Result) -> None:
    assert fast.exit_code == slow.exit_code, (fast, slow)
    assert SHA.sub("<sha>", fast.stdout) == SHA.sub("<sha>", slow.stdout)
    assert SHA.sub("<sha>", fast.stderr) == SHA.sub("<sha>", slow.stderr)


@pytest.fixture
def teams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Team, Team]:
    for key, value in ENV.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "fast").mkdir()
    (tmp_path / "click").mkdir()
    return start_team(tmp_path / "fast"), start_team(tmp_path / "click")


def test_a_whole_exchange_prints_the_same_both_ways(teams: tuple[Team, Team]) -> None:
    fast, slow = teams
    for team in teams:
        team.alice.edit(ROT, tags=("auth", "jwt", "security"))
        team.alice.write("auth/jwt/signing_keys.md", "Signing keys", facts=["monthly"])
    for args in (("vc", "add"), ("vc", "commit", "-m", "alice: keys"), ("vc", "push")):
        _same(_fast(fast.alice, *args), slow.alice.brv(*args))
    _same(_fast(fast.bob, "vc", "pull"), slow.bob.brv("vc", "pull"))
    for team in teams:  # --json too, and a named path
        team.bob.write("auth/jwt/sessions.md", "Sessions")
    for args in (("vc", "add", "auth/jwt/sessions.md", "--json"),
                 ("vc", "commit", "--json", "-m", "bob: sessions"), ("vc", "push", "--json")):
        a, b = _fast(fast.bob, *args), slow.bob.brv(*args)
        assert a.exit_code == b.exit_code == 0
        assert json.loads(SHA.sub("s", a.stdout)) == json.loads(SHA.sub("s", b.stdout))
    pulled = _fast(fast.alice, "vc", "pull", "--json")
    assert json.loads(pulled.stdout)["after"]["changed"] == ["auth/jwt/sessions.md"]


def test_failures_go_through_the_one_error_boundary(teams: tuple[Team, Team]) -> None:
    fast, slow = teams
    _same(_fast(fast.alice, "vc", "commit", "-m", "nothing"),
          slow.alice.brv("vc", "commit", "-m", "nothing"))  # nothing staged: exit 1
    for team in teams:
        (team.alice.tree / "auth/jwt/broken.md").write_text("---\ntitle: [x\n---\nbody\n")
        team.alice.ok("vc", "add")
    refused = _fast(fast.alice, "vc", "commit", "-m", "broken", "--json")
    _same(refused, slow.alice.brv("vc", "commit", "-m", "broken", "--json"))
    assert json.loads(refused.stdout)["ok"] is False
    # both edit the same line: the pull stops on a conflict, exit 1, as git does
    for team in teams:
        team.bob.edit(ROT, summary="bob's summary")
        team.bob.ok("vc", "add")
        team.bob.ok("vc", "commit", "-m", "bob")
        team.bob.ok("vc", "push")
        (team.alice.tree / "auth/jwt/broken.md").unlink()
        team.alice.ok("vc", "add")
        team.alice.edit(ROT, summary="alice's summary")
        team.alice.ok("vc", "add")
        team.alice.ok("vc", "commit", "-m", "alice")
    conflict = _fast(fast.alice, "vc", "pull")
    _same(conflict, slow.alice.brv("vc", "pull"))
    assert conflict.exit_code == 1


@pytest.mark.parametrize("args", [
    ("commit",), ("commit", "-m"), ("commit", "-m", "a", "-m", "b"), ("push", "origin"),
    ("pull", "origin", "main"), ("add", "--help"), ("commit", "--amend", "-m", "x"),
])
def test_other_forms_are_left_to_click(args: tuple[str, ...]) -> None:
    assert _options(args[0], list(args[1:])) is None
