"""A plain ``git pull`` that changes only entries brv never removed here: the post-merge hook
asks git for no commit time and reads no log rows since it.

The re-application of brv's uncommitted deletions (``services/vc/written_back.deleted_here``)
needs the pre-pull commit's time (``git log -1``) and the curate-log rows logged since, but
only when some row may be a removal of a changed entry or of a folder above it. That is asked
first (``curate_log.may_remove``: one indexed lookup a head of ``removal_of``'s messages), so
the common pull pays neither the git process nor the scan (stop 24: ~35 ms of the hooks'
CPU on a 1-entry fast-forward at 25,000 entries over 0dec064's). ``may_remove`` must stay a
necessary condition of the rule: it finds exactly the messages ``removal_of`` reads as removals
(the forms listed once, ``curate_log._removals``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from hooks_support import git, git_env
from hypothesis import given
from hypothesis import strategies as st
from vc_helpers import traced_gits
from written_back_support import D, E, P, brv_ok, change, origin_and_clone

from brv_vc.lifecycle.curate_log import (
    LogRow,
    append,
    delete_folder_message,
    delete_message,
    may_remove,
    merge_message,
    removal_of,
)


def _commit_times(trace: Path) -> list[str]:
    """The ``git log -1 --format=%ct`` (git.commit_time) a GIT_TRACE file shows started."""
    return [cmd for cmd in traced_gits(trace) if cmd.startswith("log -1 ") and "%ct" in cmd]


def _pull(root: Path, trace: Path) -> str:
    done = git("pull", "-q", "--no-rebase", cwd=root, env=git_env(GIT_TRACE=str(trace)))
    return done.stderr


def test_a_pull_of_an_entry_brv_never_removed_asks_git_no_commit_time(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    # brv removed other entries here (the log holds their removals, not yet committed)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    brv_ok(clone.root, "curate", "merge", P, "--into", "payments/ledger/double_entry.md",
           "--reason", "duplicates")
    change(origin, E)
    trace = tmp_path / "trace"

    said = _pull(clone.root, trace)

    assert _commit_times(trace) == [], traced_gits(trace)
    assert "Disputes zebrafish cutover" in (clone.tree / E).read_text(), said
    assert not (clone.tree / D).exists()
    assert not (clone.tree / P).exists()
    assert D not in said
    assert P not in said


def test_a_pull_of_an_entry_brv_removed_still_asks_and_removes_it_again(tmp_path: Path) -> None:
    """The other side: a removal of the changed entry is found, and the rule runs as before."""
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, D)
    trace = tmp_path / "trace"

    said = _pull(clone.root, trace)

    assert _commit_times(trace), said
    assert not (clone.tree / D).exists(), said
    assert f"git wrote back {D}, which brv had removed here" in said


def _log(rows: list[tuple[str, str]]) -> sqlite3.Connection:
    """A real SQLite curate log holding ``rows`` (message, status), appended as brv appends."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    append(conn, [LogRow("2026-01-01T00:00:00Z", "DELETE", "x", status, "r", message)
                  for message, status in rows])
    return conn


NAME = st.text(alphabet="ab_.%/ -(é\U0010ffff", min_size=1, max_size=6)


@given(st.lists(NAME, min_size=1, max_size=3), st.lists(st.tuples(NAME, NAME, st.integers(0, 4),
                                                                  st.booleans()), max_size=6))
def test_may_remove_finds_every_removal_the_rule_reads(keys: list[str],
                                                       made: list[tuple[str, str, int, bool]]
                                                       ) -> None:
    """Whatever the log holds, ``may_remove`` answers as ``removal_of`` read over every
    successful row: False only when the rule would find nothing."""
    builders = (lambda a, b: delete_message(a), lambda a, b: f"{delete_message(a)} again x",
                lambda a, b: delete_folder_message(a, 3), merge_message,
                lambda a, b: f"added {a}")
    rows = [(builders[kind](a, b), "success" if ok else "undone") for a, b, kind, ok in made]
    rows += [(delete_message(k + "x"), "success") for k in keys]  # near misses
    conn = _log(rows)
    try:
        assert may_remove(conn, keys) == any(
            removal_of(message, key) is not None
            for message, status in rows if status == "success" for key in keys)
    finally:
        conn.close()


def test_may_remove_says_no_for_other_paths_and_yes_without_its_index() -> None:
    conn = _log([(delete_message("a/b_c.md"), "success"), (merge_message("a/d.md", "a/e.md"),
                                                           "success"),
                 (delete_folder_message("f/g", 2), "success"), (delete_message("a/h.md"), "undone")])
    try:
        assert not may_remove(conn, ["a", "a/bxc.md", "a/e.md", "a/h.md", "f", "a/d"])
        assert may_remove(conn, ["a/b_c.md"])
        assert may_remove(conn, ["a/d.md"])
        assert may_remove(conn, ["f/g"])
        conn.execute("DROP INDEX curate_log_removals")  # a log no brv since has appended to
        assert may_remove(conn, ["a/bxc.md"])
        conn.execute("DELETE FROM curate_log")
        assert not may_remove(conn, ["a/b_c.md"])
    finally:
        conn.close()
