"""'brv review reject --all' with nothing pending rejects nothing and says so (exit 0).

It raised IndexError (an internal error) after a dream that proposed nothing: the hypothesis
example of test_dream_undo.py with one entry met it now and then.
"""

from __future__ import annotations

from dream_support import NOW, OAUTH, add, tree_bytes

from brv_vc.services import dream, review
from brv_vc.tree.project import Project


def test_reject_all_after_a_dream_that_proposed_nothing(project: Project, brv) -> None:
    review.set_enabled(project, True)
    add(project, "api/auth", "OAuth flow", OAUTH)
    dream.dream(project, NOW, force=True)  # one entry: nothing to consolidate
    before = tree_bytes(project.root)
    decision = review.reject(project, NOW, everything=True)
    assert (decision.action, decision.entries, decision.also) == ("rejected", (), ())
    shown = brv("review", "reject", "--all", "--json", cwd=project.root)
    assert shown.exit_code == 0, shown.stderr
    assert tree_bytes(project.root) == before
