"""``brv vc branch`` and ``checkout`` take only names git takes as branch names (one rule)."""

from __future__ import annotations

import pytest

from brv_vc.tree.project import Project
from tests.conftest import snapshot


@pytest.fixture
def committed(seeded: Project, brv) -> Project:
    assert brv("vc", "init", cwd=seeded.root).exit_code == 0
    assert brv("vc", "add", ".", cwd=seeded.root).exit_code == 0
    assert brv("vc", "commit", "-m", "first", cwd=seeded.root).exit_code == 0
    return seeded


@pytest.mark.parametrize(("name", "why"), [
    ("@", "git reads '@' alone as HEAD"),
    ("HEAD", "git check-ref-format --branch refuses it"),
    ("-d", "git check-ref-format --branch refuses it"),
    ("a..b", "git check-ref-format --branch refuses it"),
    ("x.lock", "git check-ref-format --branch refuses it"),
    ("@{-1}", "git check-ref-format --branch refuses it"),  # no previous branch yet
])
@pytest.mark.parametrize("command", [("vc", "branch", "--"), ("vc", "checkout", "-b"),
                                     ("vc", "checkout", "--")])
def test_a_name_that_is_no_branch_name_is_refused(committed: Project, brv, name: str, why: str,
                                                  command: tuple[str, ...]) -> None:
    if name.startswith("-") and command[-1] == "-b":
        pytest.skip("click reads it as an option of checkout -b")
    before = snapshot(committed.root)
    branches = brv("vc", "branch", "--json", cwd=committed.root).json()
    result = brv(*command, name, cwd=committed.root)
    assert result.exit_code == 1, result.stdout
    assert f"brv: error: {name!r} is not a valid branch name ({why}); nothing was changed" \
        in result.stderr
    assert "hint: use letters, digits" in result.stderr
    assert "Switched" not in result.stdout
    assert brv("vc", "branch", "--json", cwd=committed.root).json() == branches
    assert snapshot(committed.root) == before


def test_a_good_name_still_works(committed: Project, brv) -> None:
    assert brv("vc", "checkout", "-b", "feature/auth-notes", cwd=committed.root).exit_code == 0
    assert brv("vc", "checkout", "main", cwd=committed.root).exit_code == 0
    assert brv("vc", "branch", "feature/x", cwd=committed.root).exit_code == 0
