"""The team simulation's kills reach ``brv mcp`` sessions too, and count their writes unknown.

Before, only CLI processes were killed: an agent host that crashes mid-call (its MCP server
gone with ``kill -9``) was never simulated. Now ``curate_mcp`` kills the real server process
when the world's kill roll says so, reports the outcome unknown (None: the ledger forgets
the batch, as for a killed ``brv curate``) and counts the kill. Real ``brv mcp`` over stdio.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

from vc_helpers import make_member

from bench.team_sim_agents import curate_mcp
from bench.team_sim_world import Clone, World, base_env

OPS: list[dict[str, object]] = [
    {"type": "ADD", "path": "notes/mcp", "title": "Killed batch", "reason": "sim",
     "content": "## Agent 0\ntoken\n"}]


def test_a_killed_mcp_session_is_a_counted_kill_with_an_unknown_outcome(
        tmp_path: Path) -> None:
    member = make_member(tmp_path, "c0")
    member.ok("vc", "init")
    base = tmp_path / "base"
    world = World("standalone", base, "", base_env(base), 1.0)
    world.kill_delay = lambda clone: 0.0  # type: ignore[method-assign]  # at once
    clone = Clone(0, member.root, False, random.Random(1))

    assert curate_mcp(world, clone, OPS) is None
    assert world.stats["kills: brv mcp"] == 1
    assert world.stats["kills"] == 1
    pid = int((base / "mcp-0.pid").read_text(encoding="utf-8"))
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError(f"the brv mcp server {pid} still runs")

    world.kill_delay = lambda clone: None  # type: ignore[method-assign]
    applied = curate_mcp(world, clone, OPS)  # the next session works as before
    assert applied is not None
    assert applied[0]["status"] == "success", applied
