"""A teammate's origin and a clone with brv's hooks, in-project: shared by the tests of what the
post-merge hook does with an entry brv deleted here that a plain ``git pull`` wrote back
(``services/vc/written_back.py``)."""

from __future__ import annotations

from pathlib import Path

from conftest import run_brv
from hooks_support import git, git_env, in_project

from brv_vc.tree.project import Project

P = "payments/ledger/refunds.md"  # MERGEd away here
T = "payments/ledger/double_entry.md"  # the MERGE's target
D = "payments/ledger/chargebacks.md"  # DELETEd here
E = "payments/ledger/disputes.md"  # deleted, committed, restored by a later commit
EARLIER = "2026-01-01T00:00:00Z"  # the base commit was made before today's curates


def brv_ok(root: Path, *args: str) -> None:
    result = run_brv(*args, cwd=root)
    assert result.exit_code == 0, (args, result)


def origin_and_clone(tmp_path: Path) -> tuple[Project, Project]:
    """An in-project origin with four entries (committed earlier) and a clone with hooks."""
    origin = in_project(tmp_path, "origin")
    for title in ("Double entry", "Refunds", "Chargebacks", "Disputes"):
        brv_ok(origin.root, "curate", "add", "payments/ledger", "--title", title, "--content",
             f"## Narrative\n{title} are posted by the ledger.", "--reason", "base")
    git("add", "-A", cwd=origin.root)
    git("commit", "-qm", "ledger", cwd=origin.root,
        env=git_env(GIT_COMMITTER_DATE=EARLIER, GIT_AUTHOR_DATE=EARLIER))
    git("clone", "-q", str(origin.root), str(tmp_path / "clone"), cwd=tmp_path)
    clone = Project(tmp_path / "clone")
    brv_ok(clone.root, "hooks", "install")
    brv_ok(clone.root, "index")
    return origin, clone


def change(origin: Project, *rels: str) -> str:
    """A teammate's commit giving each entry a new section; its id."""
    for rel in rels:
        word = Path(rel).stem.capitalize()
        brv_ok(origin.root, "curate", "update", rel, "--content",
             f"## Rollout\n{word} zebrafish cutover closes on Fridays.", "--reason", "teammate")
    git("add", "-A", cwd=origin.root)
    git("commit", "-qm", "teammate: rollout", cwd=origin.root)
    return git("rev-parse", "HEAD", cwd=origin.root).stdout.strip()


def pull_keeps(clone: Project, rel: str) -> None:
    """A plain ``git pull`` that leaves ``rel`` where it is, with the teammate's change
    (:func:`change`'s) and unnamed on git's stderr: no re-application of brv's removal."""
    pulled = git("pull", "-q", "--no-rebase", cwd=clone.root)
    assert (clone.tree / rel).is_file(), pulled.stderr
    word = Path(rel).stem.capitalize()
    assert f"{word} zebrafish cutover closes on Fridays." in (clone.tree / rel).read_text()
    assert rel not in pulled.stderr
