"""A shallow clone whose merged side branch reaches behind its boundary never calls a change
the entry's own history holds "since": the entry's commit sits on the side branch, the
deletion before it on main, and the path between them is cut (real git, in-project)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from code_links_support import Repo

from brv_vc.services import code_links
from brv_vc.tree.project import Project


def test_a_deletion_before_the_entry_is_not_called_deleted_in_a_shallow_clone(
        tmp_path: Path) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/gone.py", "OLD = 1\n")
    repo.write("src/kept.py", "KEPT = 1\n")
    repo.commit("code")
    repo.git("rm", "-q", "src/gone.py")
    repo.commit("drop gone")  # D: before the entry on every path
    repo.git("checkout", "-q", "-b", "side")
    for n in range(4):
        repo.write("src/side.py", f"SIDE = {n}\n")
        repo.commit(f"side {n}")
    repo.entry("code/history/notes.md", ["src/gone.py", "src/kept.py"], title="History")
    repo.git("checkout", "-q", "main")
    for n in range(2):
        repo.write("README.md", f"main {n}\n")
        repo.commit(f"main {n}")
    repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side")
    assert code_links.stale(repo.project).entries == ()  # the full history: nothing since

    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "5", f"file://{repo.root}", str(clone)],
                   check=True, capture_output=True)
    have = subprocess.run(["git", "log", "--format=%s"], cwd=clone, capture_output=True,
                          text=True, check=True).stdout.splitlines()
    assert "drop gone" in have  # reached through main ...
    assert "side 0" not in have  # ... while the side branch's path to it is cut
    assert code_links.stale(Project(clone)).entries == ()
