"""A dream cut by its budget keeps a cursor; the next one continues after it, never restarts."""

from __future__ import annotations

import itertools
import os

from dream_support import NOW, add, logged_ops

from brv_vc.services import dream
from brv_vc.tree import dreamstate
from brv_vc.tree.store import entry_paths

_WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
          "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo"]


def _tree(project) -> list[str]:
    """Twelve unrelated entries in two domains: every decision is a SKIP."""
    for i in range(12):
        words = " ".join(f"{_WORDS[(i + k) % len(_WORDS)]}{i}x{k}" for k in range(8))
        add(project, f"{'api' if i % 2 else 'ops'}/t", f"Note {words.split()[0]}", words + ".")
    return entry_paths(project)


def _ticks(step: float = 1.0):
    """A clock that moves one step per reading: the budget counts the checks."""
    counter = itertools.count()
    return lambda: next(counter) * step


def _consolidated(project, result) -> list[str]:
    return [f for op in logged_ops(project, result.id) if op["operation"] == "consolidate"
            for f in op.get("files", [])]


def test_a_cut_pass_is_continued_from_its_cursor(project):
    entries = _tree(project)
    first = dream.dream(project, NOW, force=True, budget=10, clock=_ticks())
    assert first.status == "partial"  # SKIP decisions are progress: never "error"
    assert first.stopped == "budget"
    done = _consolidated(project, first)
    assert done
    assert done == entries[: len(done)]  # in path order
    cursor = dreamstate.read_state(project)["consolidateCursor"]
    assert cursor == {"after": done[-1], "since": None}

    # an entry the first dream already passed is edited between the dreams
    touched = entries[0]
    path = project.tree / touched
    path.write_text(path.read_text() + "\nEdited after the first dream.\n")
    os.utime(path, None)

    rest = dream.dream(project, NOW, force=True, budget=1e6)
    assert rest.status == "completed"
    again = _consolidated(project, rest)
    assert again == [touched, *entries[len(done):]]  # nothing else done twice
    assert dreamstate.read_state(project)["consolidateCursor"] is None


def test_several_cut_dreams_cover_every_entry_once(project):
    entries = _tree(project)
    seen: list[str] = []
    for _ in range(20):
        result = dream.dream(project, NOW, force=True, budget=9, clock=_ticks())
        seen += _consolidated(project, result)
        if not dreamstate.read_state(project)["consolidateCursor"] and result.stopped != "budget":
            break
    assert seen[: len(entries)] == entries


def test_scan_honours_its_budget_and_moves_nothing(project):
    entries = _tree(project)
    full = dream.scan(project, NOW)
    assert full.stopped == ""
    cut = dream.scan(project, NOW, budget=9, clock=_ticks())
    assert cut.stopped == "budget"
    assert 0 < len(cut.candidates) < len(full.candidates)
    assert dreamstate.read_state(project)["consolidateCursor"] is None
    assert entry_paths(project) == entries


def test_stored_candidates_answer_as_the_query_and_go_stale_with_the_tree(project):
    from brv_vc.index.dream_hits import StoredHits
    from brv_vc.index.search import ranked_paths
    from brv_vc.services import derived

    _tree(project)
    opened = derived.open_synced(project)
    try:
        first = StoredHits(opened.conn)
        asked = [(w, first.get(w, 3, exclude="api/")) for w in ("note", "alpha0x0", "kilo9x0")]
        stored = opened.conn.execute("SELECT count(*) FROM dreamhits").fetchone()[0]
        assert stored == 3
        again = StoredHits(opened.conn)  # a later dream: read back, the same answers
        assert [(w, again.get(w, 3, exclude="api/")) for w, _ in asked] == asked
        # stored ids that no longer name the same files (the CRC differs): asked again
        for term, rows in opened.conn.execute("SELECT term, rows FROM dreamhits").fetchall():
            opened.conn.execute("UPDATE dreamhits SET rows = ? WHERE term = ?",
                                (b"\0\0\0\0" + rows[4:], term))
        checked = StoredHits(opened.conn)
        assert [(w, checked.get(w, 3, exclude="api/")) for w, _ in asked] == asked
    finally:
        opened.close()
    add(project, "ops/t", "Note lima", "lima words.")  # the tree changed: stale, cleared
    opened = derived.open_synced(project)
    try:
        later = StoredHits(opened.conn)
        assert opened.conn.execute("SELECT count(*) FROM dreamhits").fetchone()[0] == 0
        assert later.get("note", 20) == ranked_paths(opened.conn, "note", 20)
    finally:
        opened.close()
