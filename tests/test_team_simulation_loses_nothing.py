"""A team at once (bench/team_sim.py, bounded: 3 clones x 4 rounds, one git mode per test):
agents writing through the CLI and MCP, people sharing with brv vc and plain git, a forge
merging branches without drivers; after every clone syncs until quiet nothing is lost or
diverged, no generated file conflicted, and search and the audit log agree with the files.

The checks themselves are checked first, on a ledger and files made by hand.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.team_sim import run_mode
from bench.team_sim_agents import Ledger
from bench.team_sim_checks import lost
from bench.team_sim_world import resolve_text


def _ledger() -> Ledger:
    ledger = Ledger()
    ledger.record(0, {"type": "ADD", "path": "a/b", "reason": "sim c0 n1", "_section": "Agent 0",
                      "_token": "zqold"}, {"status": "success", "file": "a/b/x.md"})
    ledger.record(0, {"type": "UPDATE", "path": "a/b/x.md", "reason": "sim c0 n2",
                      "_section": "Agent 0", "_token": "zqnew"},
                  {"status": "success", "file": "a/b/x.md"})
    ledger.record(1, {"type": "UPDATE", "path": "a/b/x.md", "reason": "sim c1 n1",
                      "_section": "Agent 1", "_token": "zqfailed"}, {"status": "failed"})
    ledger.record(0, {"type": "ADD", "path": "a/b", "reason": "sim c0 n3", "_section": "Agent 0",
                      "_token": "zqgone"}, {"status": "success", "file": "a/b/y.md"})
    ledger.record(0, {"type": "DELETE", "path": "a/b/y.md", "reason": "sim c0 n4"},
                  {"status": "success", "file": "a/b/y.md"})
    ledger.record(0, {"type": "ADD", "path": "a/c", "reason": "sim c0 n5", "_section": "Agent 0",
                      "_token": "zqsource"}, {"status": "success", "file": "a/c/s.md"})
    # a MERGE's answer names the target
    ledger.record(0, {"type": "MERGE", "path": "a/c/s.md", "target": "a/b/x.md",
                      "reason": "sim c0 n6"}, {"status": "success", "file": "a/b/x.md"})
    return ledger


def test_the_loss_check_counts_only_what_was_reported_and_not_superseded() -> None:
    ledger = _ledger()
    assert lost(ledger, {"a/b/x.md": "## Agent 0\nzqnew\n\nzqsource\n"})[:2] == (0, 0)
    assert lost(ledger, {"a/b/x.md": "## Agent 0\nzqold\nzqsource\n"})[:2] == (1, 0)
    assert lost(ledger, {"a/b/x.md": "## Agent 0\nzqnew\n", "a/c/s.md": "zqsource"})[:2] == (
        1, 1)
    assert lost(ledger, {})[:2] == (2, 0)
    assert lost(ledger, {"a/b/x.md": "zqnew zqsource", "a/b/y.md": "zqgone"})[:2] == (0, 1)
    assert ledger.reported[0] == {f"sim c0 n{i}": True for i in range(1, 7)}
    assert ledger.reported[1] == {"sim c1 n1": False}


def test_a_persons_resolution_keeps_both_bodies_and_our_frontmatter() -> None:
    text = ("---\n<<<<<<< ours\ntitle: \"A\"\n=======\ntitle: \"B\"\n>>>>>>> theirs\n---\n\n"
            "## Status\n<<<<<<< ours\nzqa\n=======\nzqb\n>>>>>>> theirs\n")
    assert resolve_text(text, generated=False) == (
        "---\ntitle: \"A\"\n---\n\n## Status\nzqa\nzqb\n")
    assert resolve_text(text, generated=True) == "---\ntitle: \"A\"\n---\n\n## Status\nzqa\n"


@pytest.mark.slow
@pytest.mark.parametrize(("mode", "kills"), [("standalone", True), ("in-project", False)],
                         ids=["standalone-kills", "in-project"])
def test_a_team_at_once_loses_nothing_and_converges(tmp_path: Path, mode: str,
                                                    kills: bool) -> None:
    figures = run_mode(mode, clones=3, rounds=4, kills=kills, seed=5, workdir=tmp_path)
    assert figures["writes"], figures
    assert figures["lost"] == 0, figures["examples"]
    assert figures["diverged"] == 0, figures["events"]
    assert figures["generated conflicts"] == 0, figures["events"]
    assert figures["markers left"] == 0, figures["events"]
    assert figures["search misses"] == 0, figures
    assert figures["audit mismatches"] == 0, figures
