"""A post-merge hook killed after recording its fold: the next command finishes only the steps
whose entries are still as that hook saw them.

Left by the kill-safe fold: the roll-forward removed each recorded source whatever it held
by then. After the kill a person may edit the entry git wrote back, or check out another
branch where it holds other text; the next command (a search) deleted it. The record now
holds the pull's HEAD and, per step, what the hook saw (a MERGE source's text, a DELETE's
hash); a source whose bytes are neither that nor a later pull's (HEAD's copy, HEAD after the
recorded one) is left as it is, and a note says so (services/vc/written_back.py). A real
plain ``git pull`` runs brv's hooks, in-project, killed at ``reapply-recorded``.
"""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv
from hooks_support import git, git_env
from written_back_support import D, P, T, brv_ok, change, origin_and_clone

INCOMING = "Refunds zebrafish cutover closes on Fridays."  # the teammate's change of P


def _killed_pull(clone: Path) -> None:
    git("pull", "-q", "--no-rebase", cwd=clone, env=git_env(BRV_FAULT_AT="reapply-recorded"))
    assert len(list((clone / ".brv/state/pending").glob("reapply-*.json"))) == 1


def _records(root: Path) -> list[Path]:
    return list((root / ".brv/state/pending").glob("reapply-*.json"))


def test_an_entry_edited_by_hand_after_the_kill_is_kept(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, P, D)
    _killed_pull(clone.root)
    edited = (clone.tree / D).read_text() + "\n## Note\nChargebacks keep the quokka review.\n"
    (clone.tree / D).write_text(edited)

    found = run_brv("search", "zebrafish cutover", cwd=clone.root)

    assert found.exit_code == 0, found
    assert (clone.tree / D).read_text() == edited  # the hand edit, kept
    assert any(D in line and "changed since" in line for line in found.stderr.splitlines()), (
        found.stderr)
    assert not (clone.tree / P).exists()  # P was as recorded: its fold is finished
    assert (clone.tree / T).read_text().count(INCOMING) == 1
    assert _records(clone.root) == []


def test_an_entry_of_another_branch_checked_out_after_the_kill_is_kept(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    git("switch", "-q", "-c", "other", cwd=clone.root)
    for rel in (P, D):  # the other branch's own text of both entries
        path = clone.tree / rel
        path.write_text(path.read_text() + f"\n## Branch\n{Path(rel).stem} on the other branch.\n")
    git("commit", "-qam", "other: both entries", cwd=clone.root)
    other = {rel: (clone.tree / rel).read_text() for rel in (P, D)}
    git("switch", "-q", "-", cwd=clone.root)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, P, D)
    _killed_pull(clone.root)
    (clone.root / ".git/index.lock").unlink()  # the killed hook's, as git's advice says
    git("switch", "-q", "other", cwd=clone.root)  # T's unstaged MERGE goes along

    found = run_brv("search", "zebrafish cutover", cwd=clone.root)

    assert found.exit_code == 0, found
    for rel in (P, D):
        assert (clone.tree / rel).read_text() == other[rel], found.stderr
        assert any(rel in line and "changed since" in line
                   for line in found.stderr.splitlines()), found.stderr
    assert INCOMING not in (clone.tree / T).read_text()
    assert "on the other branch" not in (clone.tree / T).read_text()
    assert _records(clone.root) == []


def test_a_source_whose_target_went_after_the_kill_is_kept_and_named(tmp_path: Path) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    change(origin, P)
    _killed_pull(clone.root)
    (clone.tree / T).unlink()  # the person removes the MERGE's target by hand

    found = run_brv("search", "zebrafish cutover", cwd=clone.root)

    assert found.exit_code == 0, found
    assert INCOMING in (clone.tree / P).read_text()  # kept: nowhere to fold it
    assert any(P in line and f"{T}, where a killed post-merge hook meant to fold it, is gone"
               in line for line in found.stderr.splitlines()), found.stderr
    assert _records(clone.root) == []
