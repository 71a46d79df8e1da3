"""The pull-request action fails its check on malformed knowledge a teammate's plain clone
committed (no hooks there to refuse it), and its log carries no advice meant for a clone.

The steps of action.yml run as GitHub runs them (``test_pr_action.run_step``), on real
repositories in both vc modes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import test_pr_action as action
from conftest import run_brv
from test_pr_action import _knowledge, run_step
from vc_helpers import git

BROKEN = "---\ntitle: [x\n---\n"  # malformed YAML in the frontmatter
CI = {"CI": "true", "GITHUB_ACTIONS": "true"}
in_project = action.in_project  # the fixture: a project tracking its tree, on branch feature


def _plain_clone_commit(root: Path, rel: str, text: str) -> None:
    """A teammate's commit made with plain git, hooks or none: nothing checked it."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "feature: knowledge", "--no-verify")


def test_malformed_knowledge_fails_the_check_with_an_annotation(in_project: Path,
                                                                 tmp_path: Path) -> None:
    _knowledge(in_project, "Refund window", "Refunds within 30 days.")
    _plain_clone_commit(in_project, ".brv/context-tree/payments/ledger/broken.md", BROKEN)
    diffed, out = run_step("diff", in_project, tmp_path, base="main", head="feature",
                           extra_env=CI)
    assert diffed.returncode == 0, diffed.stderr
    assert out["changed"] == "true"  # the diff and its comment still come first
    proc, _ = run_step("validate", in_project, tmp_path, base="main", head="feature",
                       extra_env=CI)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert ("::error file=.brv/context-tree/payments/ledger/broken.md::malformed YAML in the "
            "frontmatter") in proc.stdout
    assert "refund_window.md" not in proc.stdout  # the valid one is not named
    assert "1 knowledge file(s) in this pull request are not valid knowledge" in proc.stdout
    # a CI job's checkout is no developer's clone: no advice to install hooks in its log
    for said in (diffed.stdout + diffed.stderr, proc.stdout + proc.stderr):
        assert "hooks are not installed" not in said
        assert "brv: warning" not in said


def test_valid_knowledge_passes_and_code_only_has_nothing_to_check(in_project: Path,
                                                                    tmp_path: Path) -> None:
    _knowledge(in_project, "Refund window", "Refunds within 30 days.")
    git(in_project, "add", "-A")
    git(in_project, "commit", "-qm", "feature: refunds")
    proc, _ = run_step("validate", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 knowledge file(s) in this pull request: all valid" in proc.stdout
    (in_project / "app.py").write_text("print('v2')\n")
    git(in_project, "commit", "-qam", "feature: code")
    proc, _ = run_step("validate", in_project, tmp_path, base="feature~1", head="feature")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "changes no knowledge file; nothing to validate" in proc.stdout


def test_standalone_knowledge_repository_is_validated(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("vc", "init", "--no-hooks", cwd=root).exit_code == 0
    _knowledge(root, "Double entry", "Postings sum to zero.")
    assert run_brv("vc", "add", cwd=root).exit_code == 0
    assert run_brv("vc", "commit", "-m", "main", cwd=root).exit_code == 0
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(root / ".brv" / "context-tree"), str(checkout))
    git(checkout, "checkout", "-q", "-b", "feature")
    _plain_clone_commit(checkout, "payments/ledger/broken.md", BROKEN)
    proc, _ = run_step("validate", checkout, tmp_path, base="main", head="feature")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "::error file=payments/ledger/broken.md::malformed YAML" in proc.stdout
    assert git(checkout, "status", "--porcelain") == ""  # the checkout is left as it was


def test_the_validate_input_turns_it_off() -> None:
    import yaml
    from conftest import REPO

    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert action["inputs"]["validate"]["default"] == "true"
    step = next(s for s in action["runs"]["steps"] if s.get("id") == "validate")
    assert step["if"] == "inputs.validate == 'true'"


def test_the_hooks_notice_is_not_said_under_ci(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A plain clone without brv's hooks: told on a developer's machine, silent in CI."""
    from hooks_support import in_project as code_project

    from brv_vc.services.hooks import notice

    project = code_project(tmp_path)
    for name in CI:
        with monkeypatch.context() as env:
            env.setenv(name, "true")
            assert notice(project) == ""
    assert "brv's git hooks are not installed in this clone" in notice(project)
