"""After a commit, HEAD read from its loose ref file is what rev-parse gives; git is asked when
the ref is not a loose file (packed, detached HEAD in a worktree aside); vc commit's sha is HEAD."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_brv
from vc_helpers import git, make_member

from brv_vc.vc.git import loose_head


def _dirs(repo: Path) -> tuple[Path, Path]:
    out = git(repo, "rev-parse", "--absolute-git-dir", "--path-format=absolute",
              "--git-common-dir").splitlines()
    return Path(out[0]), Path(out[1])


def test_loose_head_is_rev_parse_head(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "one")
    git_dir, common = _dirs(repo)
    assert loose_head(git_dir, common, "main") == git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "team/feature-1")
    git(repo, "commit", "-q", "--allow-empty", "-m", "two")
    assert loose_head(git_dir, common, "team/feature-1") == git(repo, "rev-parse",
                                                                "HEAD").strip()
    git(repo, "checkout", "-q", "--detach")
    git(repo, "commit", "-q", "--allow-empty", "-m", "three")
    assert loose_head(git_dir, common, "HEAD") == git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    git(repo, "pack-refs", "--all")  # no loose file: git must say
    assert loose_head(git_dir, common, "main") is None


def test_a_worktree_reads_its_branch_in_the_common_dir(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "commit", "-q", "--allow-empty", "-m", "one")
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "on side")
    git_dir, common = _dirs(other)
    assert git_dir != common
    assert loose_head(git_dir, common, "side") == git(other, "rev-parse", "HEAD").strip()


def test_vc_commit_answers_the_new_head(tmp_path: Path) -> None:
    me = make_member(tmp_path, "me")
    me.ok("vc", "init")
    me.write("kb/n/a.md", "A")
    me.ok("vc", "add")
    done = run_brv("vc", "commit", "-m", "first", "--json", cwd=me.root)
    assert done.exit_code == 0, done.stderr
    first = json.loads(done.stdout)
    assert first["sha"] == me.git("rev-parse", "HEAD").strip()
    assert first["branch"] == "main"
    me.write("kb/n/b.md", "B")
    me.ok("vc", "add")
    me.git("pack-refs", "--all")  # the ref packed before the commit: git writes it loose again
    second = json.loads(run_brv("vc", "commit", "-m", "second", "--json", cwd=me.root).stdout)
    assert second["sha"] == me.git("rev-parse", "HEAD").strip() != first["sha"]
