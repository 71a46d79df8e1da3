"""A ``git rebase`` that only fast-forwards refreshes what it brought in.

post-checkout skips while a rebase runs: post-rewrite refreshes ``ORIG_HEAD..HEAD`` once at
its end. A rebase with nothing of its own to replay rewrites nothing, so git (2.39) runs no
post-rewrite; and its post-checkout (the checkout of the new base) already sees the rebase's
state folder (the merge backend makes it first, autostash or not). Both skipped, the incoming
entry stayed unindexed (review of rebasefold, finding 7). A rebase counts as running for
post-checkout only while it has commits left to replay (``KnowledgeRepo.replaying``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hooks_support import entry_bytes, git, log_lines, standalone, write

from brv_vc.tree.project import Project

INCOMING = "ops/deploy/rollbacks.md"


def _installed(project: Project, brv) -> Project:
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    return project


@pytest.mark.parametrize("autostash", [False, True], ids=["plain", "autostash"])
def test_a_fast_forward_rebase_refreshes_the_incoming_entry(tmp_path: Path, brv,
                                                             autostash: bool) -> None:
    project = _installed(standalone(tmp_path), brv)
    tree = project.tree
    git("branch", "behind", cwd=tree)
    write(tree, INCOMING, entry_bytes("Rollbacks", "Roll back with the zebrafish lever.\n"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "--no-verify", "-m", "main work", cwd=tree)
    git("checkout", "-q", "behind", cwd=tree)
    if autostash:  # something for the autostash to hold
        write(tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation", "Edited.\n"))
    count = len(log_lines(project))

    git("rebase", *(["--autostash"] if autostash else []), "main", cwd=tree)

    assert (tree / INCOMING).is_file()
    runs = log_lines(project)[count:]
    assert any(INCOMING in r["refreshed"] for r in runs), runs
    found = brv("search", "zebrafish lever", "--json", cwd=project.root)
    assert INCOMING in found.stdout, found
