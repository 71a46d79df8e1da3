"""A rebase with an autostash re-applies only the deletions that autostash holds.

The hook of a ``git pull --rebase`` with autostash (post-merge of a fast-forward, post-rewrite
of a rebase) removes again an entry brv deleted here that git wrote back
(``pulled_back.written_back``): the deletion is in the stash, the pull brought the entry back. Its
rule, "the newest curate-log row is a DELETE logged after ORIG_HEAD's commit", does not prove
that on its own: the person may have brought the entry back themselves (``git restore`` after
``brv curate delete``), or deleted and committed it while the rebase was stopped and then kept
it after all. The stash, taken before the rebase, holds neither deletion: the entry stays, with
its incoming change (review of rebasefold, finding 1). A rebase without an autostash re-applies
nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooks_support import git
from written_back_support import D, brv_ok, change, origin_and_clone

INCOMING = "Chargebacks zebrafish cutover closes on Fridays."  # the teammate's change of D


def _dirty_code(root: Path) -> None:
    """An unrelated change for the autostash to hold."""
    (root / "src/app.py").write_text("print('edited here')\n")


@pytest.mark.parametrize("local_commit", [False, True], ids=["fast-forward", "rebased"])
def test_an_entry_restored_before_an_autostash_pull_keeps_its_incoming_change(
        tmp_path: Path, local_commit: bool) -> None:
    origin, clone = origin_and_clone(tmp_path)
    if local_commit:  # a commit to replay: post-rewrite, not post-merge
        (clone.root / "notes.txt").write_text("local\n")
        git("add", "notes.txt", cwd=clone.root)
        git("commit", "-qm", "local code", cwd=clone.root)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    git("restore", f".brv/context-tree/{D}", cwd=clone.root)  # the person wants it back
    _dirty_code(clone.root)
    change(origin, D)

    pulled = git("-c", "rebase.autoStash=true", "pull", "--rebase", cwd=clone.root,
                 check=False)

    assert pulled.returncode == 0, pulled.stderr
    assert "resulted in conflicts" not in pulled.stderr, pulled.stderr
    assert INCOMING in (clone.tree / D).read_text(), pulled.stderr
    assert "removed again" not in pulled.stderr, pulled.stderr
    assert (clone.root / "src/app.py").read_text() == "print('edited here')\n"


@pytest.mark.parametrize("autostash", [True, False], ids=["autostash", "no-autostash"])
def test_a_deletion_committed_during_a_rebase_and_undone_is_left_alone(
        tmp_path: Path, autostash: bool) -> None:
    origin, clone = origin_and_clone(tmp_path)
    (clone.root / "notes.txt").write_text("local\n")
    git("add", "notes.txt", cwd=clone.root)
    git("commit", "-qm", "local code", cwd=clone.root)
    incoming = change(origin, D)
    git("fetch", "-q", cwd=clone.root)
    if autostash:
        _dirty_code(clone.root)
    # an 'edit' step: the rebase stops after replaying the local commit
    git("-c", "sequence.editor=sed -i s/^pick/edit/", "-c", f"rebase.autoStash={autostash}",
        "rebase", "-i", "@{upstream}", cwd=clone.root)
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    git("add", "-A", ".brv/context-tree", cwd=clone.root)
    git("commit", "-qm", "brv: delete chargebacks", cwd=clone.root)
    git("revert", "--no-edit", "HEAD", cwd=clone.root)  # kept after all

    ended = git("rebase", "--continue", cwd=clone.root, check=False)

    assert ended.returncode == 0, ended.stderr
    assert INCOMING in (clone.tree / D).read_text(), ended.stderr
    assert "removed again" not in ended.stderr, ended.stderr
    assert not git("status", "--porcelain", ".brv/context-tree", cwd=clone.root).stdout
    git("merge-base", "--is-ancestor", incoming, "HEAD", cwd=clone.root)
    if autostash:
        assert (clone.root / "src/app.py").read_text() == "print('edited here')\n"
