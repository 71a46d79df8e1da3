"""The fold of an entry MERGEd away on one side (``brv vc resolve``, and ``brv vc pull`` /
``merge`` once git's merge stops) holds git's ``index.lock`` from its read to its last write,
as every brv writer does: no git command rewrites the target between the fold's read and its
write.

Left by stop 23 (closing note, "Still left"): ``merged_away.fold_conflicts`` read the target
T from the work tree, wrote it with the source P folded in and removed P while a live git
held the lock (a person's ``git restore``, an editor's ``git add`` with a clean filter), so
one's rename went over the other's result; its ``git add`` then failed on that lock, unsaid.
Here a live ``git add`` holds the lock (its clean filter blocks until a release file
appears): the fold refuses, exit 1, naming the lock, and changes nothing (T as it was, P
still there, the conflict still unmerged); once git is done, the same command folds.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import brv_process
from merged_away_support import P, T, base, changed_on_a_side, commit
from vc_helpers import Member, appear, standalone_member


def _stopped(tmp_path: Path) -> Member:
    """A plain ``git merge`` stopped on P, MERGEd into T on main and changed on the branch."""
    solo = standalone_member(tmp_path)
    base(solo)
    commit(solo, "base")
    changed_on_a_side(solo, "merge", P, "--into", T, "--reason", "duplicates")
    solo.git("merge", "side", check=False)
    assert P in _unmerged(solo)
    return solo


def _unmerged(member: Member) -> str:
    return member.git("diff", "--name-only", "--diff-filter=U")


@contextmanager
def _git_holding_index_lock(tmp_path: Path, member: Member) -> Iterator[None]:
    """A live ``git add`` of a file outside the knowledge, holding ``index.lock`` while its
    clean filter waits for a release file (it then fails: nothing is staged).

    ``git commit -a`` would refuse at once on the unmerged paths; an add runs during a
    conflict, as an editor's or a second terminal's would.
    """
    release = tmp_path / "release"
    attributes = member.tree / member.git("rev-parse", "--git-path", "info/attributes").strip()
    attributes.parent.mkdir(parents=True, exist_ok=True)
    attributes.write_text("held.txt filter=hold\n")
    (member.tree / "held.txt").write_text("a person's notes\n")
    wait = (f"i=0; while [ ! -e '{release}' ] && [ $i -lt 3000 ]; do sleep 0.1; "
            "i=$((i+1)); done; exit 1")
    adding = subprocess.Popen(
        ["git", "-c", f"filter.hold.clean={wait}", "-c", "filter.hold.required=true",
         "add", "-f", "held.txt"], cwd=member.tree, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    try:
        appear(member.tree / ".git" / "index.lock", adding)
        yield
    finally:
        release.write_text("go")
        adding.wait(timeout=300)
    assert not (member.tree / ".git" / "index.lock").exists()


def _as_left(member: Member) -> tuple[str, bytes | None]:
    """T's text and P's bytes (None: P removed) in the work tree."""
    source = member.tree / P
    return member.text(T), source.read_bytes() if source.exists() else None


def test_resolve_refuses_while_git_holds_index_lock_then_folds(tmp_path: Path) -> None:
    solo = _stopped(tmp_path)
    before = _as_left(solo)

    with _git_holding_index_lock(tmp_path, solo):
        ran = brv_process("vc", "resolve", "--json", cwd=solo.root,
                          env={"BRV_GIT_WAIT": "1"})
        held = _as_left(solo)  # read while git still holds it

    assert ran.exit_code == 1, ran
    said = ran.stdout + ran.stderr
    assert "index.lock" in said, said
    assert "nothing was changed" in said, said
    assert held == before, "the fold wrote while git held index.lock"
    assert _as_left(solo) == before
    assert P in _unmerged(solo)

    out = json.loads(solo.ok("vc", "resolve", "--json").stdout)  # git is done: it folds
    assert [(f["source"], f["target"]) for f in out["folded"]] == [(P, T)], out
    assert not (solo.tree / P).exists()
    assert "Zebrafish cutover windows" in solo.text(T)
    assert _unmerged(solo) == ""


def test_the_pulls_fold_refuses_while_git_holds_index_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``merged_away.settle``, as ``brv vc pull`` and ``merge`` call it once git's merge has
    stopped (``sync._merge``): the merge stands stopped, none folded, and the message names
    the lock and ``brv vc resolve``.

    Through ``brv vc pull`` itself a git would have to take the lock between the pull's own
    merge and its fold (the pull waits for, and its merge fails on, a lock held before).
    """
    from brv_vc.errors import ConflictError
    from brv_vc.services.vc.changes import status
    from brv_vc.services.vc.merged_away import settle
    from brv_vc.tree.project import Project
    from brv_vc.vc.repo import locate

    solo = _stopped(tmp_path)
    repo = locate(Project(solo.root))
    head, side = repo.head(), repo.rev("side")
    assert head is not None
    assert side is not None
    conflicts = status(repo).conflicts
    before = _as_left(solo)
    monkeypatch.setenv("BRV_GIT_WAIT", "1")

    with _git_holding_index_lock(tmp_path, solo), pytest.raises(ConflictError) as refused:
        settle(Project(solo.root), repo, head, side, conflicts, datetime.now(UTC))
    assert _as_left(solo) == before

    assert "index.lock" in refused.value.message, refused.value.message
    assert "stopped on 1 conflict(s) and none was folded" in refused.value.message
    assert "brv vc resolve" in (refused.value.hint or "")
    assert P in _unmerged(solo)
    assert (solo.tree / ".git" / "MERGE_HEAD").is_file()


def test_a_fold_git_cannot_stage_is_said_with_the_add_to_run(tmp_path: Path) -> None:
    """A killed git's lock (no git runs: stale, not waited for) lets the fold write, and
    makes its ``git add`` fail: the command says so, exit 1, with the add to run, rather
    than report the fold done while P stays unmerged."""
    solo = _stopped(tmp_path)
    lock = solo.tree / ".git" / "index.lock"
    lock.write_text("")  # left by a killed git

    ran = brv_process("vc", "resolve", "--json", cwd=solo.root)

    assert ran.exit_code == 1, ran
    said = ran.stdout + ran.stderr
    assert "could not stage them" in said, said
    assert f"git add -A -- {P}" in said or f"git add -A -- {T} {P}" in said, said
    assert not (solo.tree / P).exists()  # the fold itself is written
    assert "Zebrafish cutover windows" in solo.text(T)
    lock.unlink()
    solo.git("add", "-A", "--", T, P)
    assert _unmerged(solo) == ""
