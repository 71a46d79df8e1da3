"""The PR comment of ``brv vc diff BASE..HEAD --format markdown`` names two commits given as
full ids by their short ids, as the Action passes them (it showed two 40-character ids);
branch names stay as given."""

from __future__ import annotations

import subprocess

from brv_vc.tree.project import Project


def _git(project: Project, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=project.tree, check=True, capture_output=True,
                          text=True).stdout.strip()


def test_the_comment_header_shows_short_commit_ids(tree_repo: Project, brv) -> None:
    seeded = tree_repo
    base = _git(seeded, "rev-parse", "HEAD")
    done = brv("curate", "add", "auth/jwt", "--title", "Key signing", "--content", "RS256.",
               cwd=seeded.root)
    assert done.exit_code == 0, done.stderr
    _git(seeded, "add", "-A")
    _git(seeded, "commit", "-qm", "second")
    head = _git(seeded, "rev-parse", "HEAD")
    shown = brv("vc", "diff", f"{base}..{head}", "--format", "markdown", cwd=seeded.root)
    assert shown.exit_code == 0, shown.stderr
    header = shown.stdout.splitlines()[2]
    assert f"(`{base[:9]}` → `{head[:9]}`)" in header
    assert base not in shown.stdout
    assert head not in shown.stdout
    branch_name = _git(seeded, "branch", "--show-current")
    branch = brv("vc", "diff", f"{base}..{branch_name}", "--format", "markdown", cwd=seeded.root)
    assert f"(`{base[:9]}` → `{branch_name}`)" in branch.stdout.splitlines()[2]
