"""A pull asks git for no diffstat and reads its new HEAD from the ref git wrote (git when not loose)."""

from __future__ import annotations

import json
from pathlib import Path

import vc_helpers
from conftest import brv_process
from vc_helpers import Team, git_commands

team = vc_helpers.team
NEW = "auth/jwt/alice.md"


def _alice_pushes(team: Team) -> None:
    team.alice.write(NEW, "Alice's lease", summary="Leases last an hour")
    team.alice.sync("alice")


def _pull(team: Team, trace: Path) -> dict[str, object]:
    pulled = brv_process("vc", "pull", "--json", cwd=team.bob.root,
                         env={"GIT_TRACE2_EVENT": str(trace)})
    assert pulled.exit_code == 0, pulled.stderr
    answer: dict[str, object] = json.loads(pulled.stdout)
    return answer


def test_a_pull_merges_without_a_diffstat_and_asks_no_head_after(team: Team,
                                                                  tmp_path: Path) -> None:
    _alice_pushes(team)
    trace = tmp_path / "trace.json"
    answer = _pull(team, trace)
    head = team.bob.git("rev-parse", "HEAD").strip()
    assert answer["new"] == head == team.alice.git("rev-parse", "HEAD").strip()
    commands = git_commands(trace)
    merges = [c for c in commands if c[0] == "merge"]
    assert len(merges) == 1, merges
    assert "--no-stat" in merges[0], merges
    after = commands[commands.index(merges[0]) + 1:]
    assert not [c for c in after if c[0] == "rev-parse"], after  # HEAD read from its ref


def test_a_ref_git_left_packed_is_asked_of_git(team: Team, tmp_path: Path) -> None:
    """A post-merge hook packs the refs: no loose ref file, so git names the new HEAD."""
    _alice_pushes(team)
    hook = team.bob.tree / ".git" / "hooks" / "post-merge"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text("#!/bin/sh\ngit pack-refs --all\n", encoding="utf-8")
    hook.chmod(0o755)
    trace = tmp_path / "trace.json"
    answer = _pull(team, trace)
    assert not (team.bob.tree / ".git" / "refs" / "heads" / "main").exists()
    assert answer["new"] == team.bob.git("rev-parse", "HEAD").strip() == team.alice.git(
        "rev-parse", "HEAD").strip()
    commands = git_commands(trace)
    merge = next(i for i, c in enumerate(commands) if c[0] == "merge")
    assert [c for c in commands[merge + 1:] if c[0] == "rev-parse"]
