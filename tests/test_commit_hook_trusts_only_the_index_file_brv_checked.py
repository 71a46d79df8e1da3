"""pre-commit starts no git for the very index file vc commit checked; any other file is judged."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hooks_support import entry_bytes, git, git_env, standalone, write
from manager_support import ok, run
from vc_helpers import traced_gits

from brv_vc.services.vc.committing import _link_checked

BROKEN = "---\ntitle: [unclosed\n---\nbody\n"


def _brv(*args: str, cwd: Path, env: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    return run(sys.executable, "-m", "brv_vc", *args, cwd=cwd, env=env)


def test_vc_commit_tells_its_hook_the_index_file_and_no_git_starts_in_it(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    write(project.tree, "auth/jwt/keys.md", entry_bytes("Keys"))
    ok(_brv("vc", "add", cwd=project.root))
    trace = tmp_path / "trace"
    ok(_brv("vc", "commit", "-m", "keys", cwd=project.root, env=git_env(GIT_TRACE=str(trace))))
    calls = traced_gits(trace)
    assert len([c for c in calls if c.startswith("write-tree")]) == 1, calls  # vc commit's own
    assert git("show", "--name-only", "--format=", "HEAD",
               cwd=project.tree).stdout.split() == ["auth/jwt/keys.md"]
    # the link and commit-msg's note are gone with the commit
    assert not [p for p in (project.tree / ".git").iterdir() if p.name.startswith("index.")]


def test_a_legacy_hook_that_stages_more_has_the_new_index_judged(tmp_path: Path) -> None:
    """git replaces the index when the legacy hook stages: not the checked file any more."""
    project = standalone(tmp_path)
    hooks = project.tree / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    legacy = hooks / "pre-commit"
    legacy.write_text("#!/bin/sh\nprintf '%s' \"$BROKEN\" > auth/jwt/late.md\n"
                      "git add auth/jwt/late.md\n", encoding="utf-8")
    legacy.chmod(0o755)
    ok(_brv("hooks", "install", cwd=project.root))
    assert (hooks / "pre-commit.legacy").exists()
    write(project.tree, "auth/jwt/keys.md", entry_bytes("Keys"))
    ok(_brv("vc", "add", cwd=project.root))
    head = git("rev-parse", "HEAD", cwd=project.tree).stdout
    refused = _brv("vc", "commit", "-m", "keys", cwd=project.root,
                   env=git_env(BROKEN=BROKEN))
    assert refused.returncode == 1
    assert "auth/jwt/late.md" in refused.stderr
    assert git("rev-parse", "HEAD", cwd=project.tree).stdout == head


def test_a_link_to_another_index_file_is_no_pass(tmp_path: Path) -> None:
    """A link left beside the index (a killed vc commit), then more staged: git is asked."""
    project = standalone(tmp_path)
    ok(_brv("hooks", "install", cwd=project.root))
    index = project.tree / ".git" / "index"
    checked = git("write-tree", cwd=project.tree).stdout.strip()
    _link_checked(index, checked)
    link = Path(f"{index}.brv-checked")
    assert link.exists()
    assert os.path.samefile(index, link)
    write(project.tree, "auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=project.tree)  # a new index file: the link names the old one
    assert not os.path.samefile(index, link)
    refused = git("commit", "-q", "-m", "told the old tree", cwd=project.tree, check=False,
                  env=git_env(BRV_COMMIT_CHECKED=checked))
    assert refused.returncode == 1
    assert "auth/jwt/broken.md" in refused.stderr


def test_no_link_for_an_index_whose_cache_tree_names_another_tree(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    index = project.tree / ".git" / "index"
    head_tree = git("rev-parse", "HEAD^{tree}", cwd=project.tree).stdout.strip()
    write(project.tree, "auth/jwt/keys.md", entry_bytes("Keys"))
    git("add", "-A", cwd=project.tree)  # the cache-tree is invalidated along the new path
    _link_checked(index, head_tree)
    assert not Path(f"{index}.brv-checked").exists()
    staged = git("write-tree", cwd=project.tree).stdout.strip()
    _link_checked(index, head_tree)  # whole again, but another tree
    assert not Path(f"{index}.brv-checked").exists()
    _link_checked(index, staged)
    assert Path(f"{index}.brv-checked").exists()


def test_a_legacy_hook_that_rewrites_the_index_in_place_has_it_judged(tmp_path: Path) -> None:
    """Not every index writer renames (isomorphic-git, a hook's ``cat saved > index``):
    after a legacy hook ran, the same file is no proof of the same content; git is asked."""
    project = standalone(tmp_path)
    hooks = project.tree / ".git" / "hooks"
    hooks.mkdir(exist_ok=True)
    legacy = hooks / "pre-commit"
    # stages a broken entry into a copy of the index, then writes the copy over the index
    # file git hands the hook: same inode, new content
    legacy.write_text(
        "#!/bin/sh\nprintf '%s' \"$BROKEN\" > auth/jwt/late.md\n"
        "cp \"$GIT_INDEX_FILE\" \"$GIT_INDEX_FILE.alt\"\n"
        "GIT_INDEX_FILE=\"$GIT_INDEX_FILE.alt\" git add auth/jwt/late.md\n"
        "cat \"$GIT_INDEX_FILE.alt\" > \"$GIT_INDEX_FILE\"\nrm -f \"$GIT_INDEX_FILE.alt\"\n",
        encoding="utf-8")
    legacy.chmod(0o755)
    ok(_brv("hooks", "install", cwd=project.root))
    write(project.tree, "auth/jwt/keys.md", entry_bytes("Keys"))
    ok(_brv("vc", "add", cwd=project.root))
    head = git("rev-parse", "HEAD", cwd=project.tree).stdout
    refused = _brv("vc", "commit", "-m", "keys", cwd=project.root,
                   env=git_env(BROKEN=BROKEN))
    assert refused.returncode == 1, refused.stderr
    assert "auth/jwt/late.md" in refused.stderr
    assert git("rev-parse", "HEAD", cwd=project.tree).stdout == head
