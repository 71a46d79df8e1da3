"""The consolidate cursor moves on in every mode: scan+apply, default dreams, apply alone."""

from __future__ import annotations

import itertools
import json

from dream_support import NOW, add, logged_ops

from brv_vc.services import dream
from brv_vc.services.dream.decisions import load_decisions
from brv_vc.tree import dreamstate
from brv_vc.tree.store import entry_paths

_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
          "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"]


def _tree(project, count: int = 12) -> list[str]:
    """Unrelated entries in two domains: every consolidate decision is a SKIP."""
    for i in range(count):
        words = " ".join(f"{_WORDS[(i + k) % len(_WORDS)]}{i}x{k}" for k in range(8))
        add(project, f"{'api' if i % 2 else 'ops'}/t", f"Note {words.split()[0]}", words + ".")
    return entry_paths(project)


def _ticks():
    """A clock that moves one second per reading: a budget counts the checks."""
    counter = itertools.count()
    return lambda: float(next(counter))


def _consolidated(ops) -> list[str]:
    return [f for op in ops if op["operation"] == "consolidate" for f in op.get("files", [])]


def _agent(project, budget: float):
    """An agent that scans within ``budget`` checks and applies every suggestion."""
    found = dream.scan(project, NOW, budget=budget, clock=_ticks())
    ops = [c["suggested"] for c in found.candidates if c["operation"] == "consolidate"]
    decisions = load_decisions(json.dumps(ops)) if ops else []
    result = dream.dream(project, NOW, force=True, decisions=decisions, trigger="agent",
                         budget=1e6)
    return found, result


def test_scan_then_apply_moves_the_cursor_and_the_next_scan_goes_on(project):
    entries = _tree(project)
    first, applied = _agent(project, budget=8)
    assert first.stopped == "budget"
    done = _consolidated(c["suggested"] for c in first.candidates)
    assert done
    assert done == entries[: len(done)]
    assert first.cursor == {"after": done[-1], "since": None}
    assert applied.status == "completed"
    assert dreamstate.read_state(project)["consolidateCursor"] == first.cursor

    second = dream.scan(project, NOW, budget=1e6)
    assert _consolidated(c["suggested"] for c in second.candidates) == entries[len(done):]
    assert second.cursor is None  # this scan reached the end of the pass


def test_every_mode_in_turn_covers_each_entry_once(project):
    entries = _tree(project, 18)
    seen: list[str] = []
    by_mode = {"agent": 0, "default": 0}
    for turn in range(30):
        if turn % 2:
            result = dream.dream(project, NOW, force=True, budget=14, clock=_ticks())
            done = _consolidated(logged_ops(project, result.id))
            by_mode["default"] += len(done)
        else:
            found, _ = _agent(project, budget=14)
            done = _consolidated(c["suggested"] for c in found.candidates)
            by_mode["agent"] += len(done)
        seen += done
        if dreamstate.read_state(project)["consolidateCursor"] is None:
            break
    assert seen == entries  # in path order, none twice, none left out
    assert by_mode["agent"]
    assert by_mode["default"]


def test_apply_without_a_scan_keeps_what_the_pass_owes(project):
    entries = _tree(project)
    cut = dream.dream(project, NOW, force=True, budget=8, clock=_ticks())
    done = _consolidated(logged_ops(project, cut.id))
    state = dreamstate.read_state(project)
    decision = [{"operation": "consolidate", "action": "SKIP", "files": [entries[-1]],
                 "reason": "the agent's own idea"}]
    dream.dream(project, NOW, force=True, decisions=load_decisions(json.dumps(decision)))
    after = dreamstate.read_state(project)
    assert after["consolidateCursor"] == state["consolidateCursor"]
    assert after["lastDreamWall"] == state["lastDreamWall"]
    rest = dream.dream(project, NOW, force=True, budget=1e6)
    assert _consolidated(logged_ops(project, rest.id)) == entries[len(done):]


def test_a_scan_overtaken_by_a_dream_does_not_move_the_cursor(project):
    entries = _tree(project)
    found = dream.scan(project, NOW, budget=1e6)  # the whole pass
    assert found.cursor is None
    cut = dream.dream(project, NOW, force=True, budget=8, clock=_ticks())  # moves on first
    cursor = dreamstate.read_state(project)["consolidateCursor"]
    assert cursor is not None
    ops = [c["suggested"] for c in found.candidates if c["operation"] == "consolidate"]
    dream.dream(project, NOW, force=True, decisions=load_decisions(json.dumps(ops[:1])))
    assert dreamstate.read_state(project)["consolidateCursor"] == cursor  # not the scan's end
    rest = dream.dream(project, NOW, force=True, budget=1e6)
    assert _consolidated(logged_ops(project, cut.id)) + _consolidated(logged_ops(project, rest.id)) == entries


def test_a_cut_apply_keeps_the_cursor_for_the_next_scan(project):
    entries = _tree(project)
    found = dream.scan(project, NOW, budget=10, clock=_ticks())
    ops = [c["suggested"] for c in found.candidates if c["operation"] == "consolidate"]
    assert len(ops) >= 2
    cut = dream.dream(project, NOW, force=True, decisions=load_decisions(json.dumps(
        [{**op, "action": "CROSS_REFERENCE", "files": [op["files"][0], entries[-1]]}
         for op in ops])), budget=0.5, clock=_ticks())
    assert cut.stopped == "budget"
    assert dreamstate.read_state(project)["consolidateCursor"] is None  # where it was
    again = dream.scan(project, NOW, budget=1e6)
    assert _consolidated(c["suggested"] for c in again.candidates)[0] == entries[0]


def test_scan_and_apply_honour_the_budget_option(project, brv):
    _tree(project)
    out = brv("dream", "scan", "--budget", "0.001", "--json", cwd=project.root).json()
    assert out["stopped"] == "budget"
    assert out["cursor"]["after"] == ""  # nothing reached: the next scan starts over here
    whole = brv("dream", "scan", "--json", cwd=project.root).json()
    assert whole["stopped"] == ""
    assert whole["cursor"] is None
    skips = [c["suggested"] for c in whole["candidates"] if c["operation"] == "consolidate"]
    assert all(c["content"] == {} for c in whole["candidates"]
               if c["suggested"]["action"] == "SKIP")  # nothing to read for a SKIP
    keeps = [{"operation": "prune", "action": "KEEP", "file": op["files"][0], "reason": "r"}
             for op in skips]  # each changes a file: one step each
    applied = brv("dream", "apply", "-", "--force", "--budget", "0.001", "--json",
                  cwd=project.root, input=json.dumps(keeps)).json()
    assert applied["status"] == "partial"
    assert applied["stopped"] == "budget"
    assert 0 < len(applied["operations"]) < len(keeps)
