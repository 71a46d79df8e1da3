"""``git pull --rebase`` over entries brv deleted here: git stops and says so, nothing is lost.

Issue 35 left it open: ``git pull --rebase`` runs no post-merge hook, so the re-application of
``services/vc/written_back.py`` never runs for it. What real git (2.39) does, in-project with
brv's hooks, when a teammate changed an entry brv MERGEd away (P into T) and one it DELETEd
(D) here:

- the deletions not committed, no autostash: git refuses the pull ("cannot pull with rebase:
  You have unstaged changes", exit 128) and changes nothing;
- with ``--autostash`` (or ``pull.rebase`` and ``rebase.autoStash`` set): the stash is taken,
  the pull lands (a fast-forward runs post-merge; a rebase of a local commit runs
  post-rewrite), and then the stash's apply stops on a modify/delete for P and D: exit 0, but
  "Applying autostash resulted in conflicts", the stash kept and both paths unmerged, so
  ``git commit`` refuses until someone decides (``git commit -a`` decides for the work tree:
  P back with the incoming text, the MERGE undone, no text lost). ``brv vc resolve`` folds P's incoming change into T
  (the stash's side is the MERGE's), and leaves D, a DELETE against a change, to a person;
- the deletions committed, not pushed: the rebase replays that commit and stops on the same
  modify/delete (exit 1, ``REBASE_HEAD``); ``brv vc resolve`` folds P into T, and after
  ``git rm`` of D and ``git rebase --continue`` the result is the MERGE with the teammate's
  change in T, found by search.

No hook can do the fold itself: post-merge and post-rewrite run before git applies the
autostash (the MERGE's write to T is still in the stash then), and no hook runs after it. So
that hook (post-merge of a fast-forward, post-rewrite of a rebase) removes D again as after
any plain pull (``pulled_back.written_back``), and names P and what decides it
(``written_back.autostashed``, by the same rule): ``brv vc resolve``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_brv
from hooks_support import git
from written_back_support import D, P, T, brv_ok, change, origin_and_clone

from brv_vc.tree.project import Project

INCOMING = "Refunds zebrafish cutover closes on Fridays."  # the teammate's change of P


def _unmerged(clone: Project) -> list[str]:
    return git("diff", "--name-only", "--diff-filter=U", cwd=clone.root).stdout.split()


def _repo(rel: str) -> str:
    return f".brv/context-tree/{rel}"


def _deleted_here(tmp_path: Path) -> tuple[Project, Project]:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")  # neither staged
    return origin, clone


def test_a_rebase_pull_over_uncommitted_deletions_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    origin, clone = _deleted_here(tmp_path)
    before = git("rev-parse", "HEAD", cwd=clone.root).stdout
    merged = (clone.tree / T).read_text()
    change(origin, P, D)

    pulled = git("pull", "--rebase", cwd=clone.root, check=False)

    assert pulled.returncode != 0, pulled.stderr
    assert "unstaged changes" in pulled.stderr, pulled.stderr
    assert git("rev-parse", "HEAD", cwd=clone.root).stdout == before
    assert not (clone.tree / P).exists()
    assert not (clone.tree / D).exists()
    assert (clone.tree / T).read_text() == merged


@pytest.mark.parametrize("local_commit", [False, True], ids=["fast-forward", "rebased"])
def test_an_autostash_rebase_pull_stops_on_the_deletions_and_resolve_folds_the_merge(
        tmp_path: Path, local_commit: bool) -> None:
    origin, clone = origin_and_clone(tmp_path)
    if local_commit:  # a commit of code to replay: a real rebase, post-rewrite
        (clone.root / "notes.txt").write_text("local\n")
        git("add", "notes.txt", cwd=clone.root)
        git("commit", "-qm", "local code", cwd=clone.root)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, P, D)
    git("config", "pull.rebase", "true", cwd=clone.root)
    git("config", "rebase.autoStash", "true", cwd=clone.root)

    pulled = git("pull", cwd=clone.root, check=False)

    # git's exit is 0, but it says the stash's apply stopped, keeps it, and leaves both
    # deletions as unmerged paths: 'git commit' refuses until they are decided ('git commit
    # -a' takes the work tree's files as the decision: P back with the incoming text)
    assert pulled.returncode == 0, pulled.stderr
    assert "Applying autostash resulted in conflicts" in pulled.stderr, pulled.stderr
    assert sorted(_unmerged(clone)) == sorted([_repo(P), _repo(D)])
    assert "autostash" in git("stash", "list", cwd=clone.root).stdout
    assert git("commit", "-qm", "x", cwd=clone.root, check=False).returncode != 0
    assert INCOMING in (clone.tree / P).read_text()  # the incoming text, in the work tree
    # the hook before that apply (post-merge, post-rewrite) names what decides each one
    said = {rel: next((ln for ln in pulled.stderr.splitlines() if f" {rel}," in ln), "")
            for rel in (P, D)}
    assert "autostash" in said[P], pulled.stderr
    assert "'brv vc resolve'" in said[P], pulled.stderr
    # a DELETE's entry is removed again first, as after any plain pull: the apply still stops
    assert "removed again" in said[D], pulled.stderr
    assert f"still stops on it: 'git rm {_repo(D)}' settles it" in said[D], pulled.stderr
    assert not (clone.tree / D).exists()

    resolved: Any = run_brv("vc", "resolve", "--json", cwd=clone.root).json()

    assert not (clone.tree / P).exists()
    text = (clone.tree / T).read_text()
    assert INCOMING in text, text
    assert "Refunds are posted by the ledger." in text, text
    assert _unmerged(clone) == [_repo(D)]  # a DELETE against a change: a person's to decide
    assert "git stash drop" in str(resolved), resolved
    # the stash still holds the deletion of D: nothing is lost whichever way it is decided
    stashed = git("stash", "show", "--name-status", "stash@{0}", cwd=clone.root).stdout
    assert f"D\t{_repo(D)}" in stashed, stashed


def test_a_committed_merge_replayed_by_a_rebase_pull_stops_and_resolve_folds_it(
        tmp_path: Path) -> None:
    origin, clone = _deleted_here(tmp_path)
    git("add", "-A", cwd=clone.root)
    git("commit", "-qm", "brv: merge refunds, delete chargebacks", cwd=clone.root)
    incoming = change(origin, P, D)

    pulled = git("pull", "--rebase", cwd=clone.root, check=False)

    assert pulled.returncode != 0, pulled.stderr
    assert sorted(_unmerged(clone)) == sorted([_repo(P), _repo(D)])
    assert INCOMING in (clone.tree / P).read_text()

    resolved = run_brv("vc", "resolve", cwd=clone.root)

    assert resolved.exit_code == 1, resolved
    assert "git rebase --continue" in resolved.stdout, resolved
    assert not (clone.tree / P).exists()
    assert _unmerged(clone) == [_repo(D)]
    git("rm", "-q", _repo(D), cwd=clone.root)  # the person keeps the DELETE
    git("-c", "core.editor=true", "rebase", "--continue", cwd=clone.root)

    listed = git("ls-tree", "-r", "--name-only", "HEAD", cwd=clone.root).stdout.split()
    assert _repo(P) not in listed
    assert _repo(D) not in listed
    assert INCOMING in git("show", f"HEAD:{_repo(T)}", cwd=clone.root).stdout
    git("merge-base", "--is-ancestor", incoming, "HEAD", cwd=clone.root)
    found: Any = run_brv("search", "refunds zebrafish cutover", "--json", cwd=clone.root).json()
    assert [hit["path"] for hit in found["results"]] == [T]
