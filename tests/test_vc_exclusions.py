"""Sync exclusions: the managed .gitignore/.gitattributes, checked against git itself."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import vc_helpers
from conftest import snapshot
from vc_helpers import Team, git, make_member

from brv_vc.vc import exclusions
from brv_vc.vc.exclusions import BEGIN, END, ensure_files, is_excluded

FOLDERS = ["", "auth/", "auth/jwt/", "_archived/", "auth/_archived/", "._hidden/", "x~/",
           "auth/_index.md/", "a.tmp/", "notes.bak/"]
NAMES = [
    "entry.md", "context.md", "_index.md", "_index.md.txt", "index.md", "_manifest.json",
    "manifest.json", "x.abstract.md", "x.overview.md", "abstract.md", "x.abstract.md.bak",
    ".DS_Store", "._entry.md", "Thumbs.db", "ehthumbs.db", "Desktop.ini", ".directory",
    ".fuse_hidden0001", ".nfs0042", "entry.md.swp", "entry.md.swo", "entry.md~", ".#entry.md",
    "old.bak", "x.tmp", "tmp", "_archived", "x.stub.md", "x.full.md", "README.md", "a~b.md",
]

ROT = "auth/jwt/token_rotation.md"

team = vc_helpers.team


def test_predicate_agrees_with_git_check_ignore(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    tree.mkdir()
    git(tree, "init", "-q")
    ensure_files(tree)
    samples = []
    for folder, name in itertools.product(FOLDERS, NAMES):
        path = tree / folder / name
        if (tree / folder).is_file() or path.is_dir():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
        samples.append(folder + name)
    proc = subprocess.run(["git", "check-ignore", "--no-index", "--stdin", "-z"], cwd=tree,
                          input="\0".join(samples) + "\0", capture_output=True, text=True,
                          check=False)
    ignored_by_git = {p for p in proc.stdout.split("\0") if p}
    disagreements = [(p, is_excluded(p), p in ignored_by_git) for p in samples
                     if is_excluded(p) != (p in ignored_by_git)]
    assert disagreements == []
    assert len(samples) > 200
    assert 50 < len(ignored_by_git) < len(samples)


def test_managed_blocks_are_idempotent_and_keep_user_lines(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("# mine\nscratch/\n")
    assert ensure_files(tmp_path) == [".gitignore", ".gitattributes"]
    first = (tmp_path / ".gitignore").read_text()
    assert first.startswith("# mine\nscratch/\n\n" + BEGIN)
    assert first.endswith(END + "\n")
    assert ensure_files(tmp_path) == []
    # a person edits inside the block and adds a line after it: the block is restored,
    # their own line stays
    (tmp_path / ".gitignore").write_text(first.replace("*.tmp\n", "") + "private.md\n")
    assert ensure_files(tmp_path) == [".gitignore"]
    text = (tmp_path / ".gitignore").read_text()
    assert "*.tmp\n" in text
    assert text.endswith("private.md\n")
    assert text.count(BEGIN) == 1
    assert (tmp_path / ".gitattributes").read_text().count("*.md merge=brv diff=brv") == 1


def test_status_rewrites_a_deleted_managed_file(team: Team) -> None:
    (team.bob.tree / ".gitattributes").unlink()
    team.bob.ok("vc", "status")
    assert exclusions.ATTRIBUTES[0] in (team.bob.tree / ".gitattributes").read_text()
    assert team.bob.ok("vc", "status", "--json").json()["unstaged"] == []


def test_derived_files_never_show_in_status(team: Team) -> None:
    for rel in ("_index.md", "auth/_index.md", "auth/jwt/token_rotation.abstract.md",
                "_manifest.json", "_archived/auth/x.full.md", "auth/.DS_Store"):
        (team.alice.tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (team.alice.tree / rel).write_text("derived")
    status = team.alice.ok("vc", "status", "--json").json()
    assert status["untracked"] == []
    assert status["unstaged"] == []


def test_force_added_excluded_file_is_refused_at_commit(team: Team) -> None:
    (team.alice.tree / "_index.md").write_text("summary")
    team.alice.git("add", "-f", "_index.md")
    before = snapshot(team.alice.root)
    head = team.alice.git("rev-parse", "HEAD")
    result = team.alice.fails("vc", "commit", "-m", "oops")
    assert "sync-excluded (derived) files are tracked: _index.md" in result.stderr
    assert "git -C .brv/context-tree rm --cached -- _index.md" in result.stderr
    assert snapshot(team.alice.root) == before
    assert team.alice.git("rev-parse", "HEAD") == head


def test_force_added_excluded_file_is_refused_at_push(team: Team) -> None:
    (team.alice.tree / "auth" / "_index.md").write_text("summary")
    team.alice.git("add", "-f", "auth/_index.md")
    # the pre-commit hook refuses this commit; a teammate who bypassed it is stopped at push
    refused = subprocess.run(["git", "commit", "-q", "-m", "plain git"], cwd=team.alice.tree,
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert "auth/_index.md: is excluded from sync" in refused.stderr
    team.alice.git("commit", "-q", "--no-verify", "-m", "committed with plain git")
    remote_head = git(team.remote, "rev-parse", "main")
    result = team.alice.fails("vc", "push", "--json")
    error = result.json()["error"]
    assert "auth/_index.md" in error["message"]
    assert "rm --cached" in error["hint"]
    assert git(team.remote, "rev-parse", "main") == remote_head
    team.alice.git("rm", "-q", "--cached", "auth/_index.md")
    team.alice.ok("vc", "commit", "-m", "untrack the summary")
    team.alice.ok("vc", "push")
    assert (team.alice.tree / "auth" / "_index.md").exists()


def test_adding_an_excluded_path_by_name_is_refused(team: Team) -> None:
    (team.alice.tree / "_index.md").write_text("summary")
    result = team.alice.fails("vc", "add", "_index.md")
    assert "sync-excluded" in result.stderr
    assert team.alice.git("diff", "--cached", "--name-only") == ""


def test_state_ignores_itself_even_without_brv_gitignore(tmp_path: Path) -> None:
    """A repository that never committed .brv/.gitignore (older brv) still keeps state out."""
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    app.ok("init")
    app.ok("curate", "add", "ops/ci", "--title", "Pipeline", "--content", "lint first")
    (app.root / ".brv/.gitignore").unlink()
    state_ignore = app.root / ".brv/state/.gitignore"
    state_ignore.unlink()  # a project made before the file existed
    app.ok("search", "pipeline")
    assert state_ignore.read_text().splitlines()[-1] == "*"
    status = git(app.root, "status", "--porcelain", "--untracked-files=all")
    assert ".brv/state" not in status
    assert ".brv/context-tree/ops/ci/pipeline.md" in status
    git(app.root, "add", "-A")
    assert ".brv/state" not in git(app.root, "diff", "--cached", "--name-only")


def test_hooks_install_in_a_plain_tree_repository_writes_the_exclusions(
        tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.write(ROT, "Token rotation")
    git(alice.tree, "init", "-q")
    result = alice.ok("hooks", "install", "--json").json()
    assert any("wrote .gitignore" in note for note in result["notes"])
    git(alice.tree, "add", ROT)
    git(alice.tree, "commit", "-q", "-m", "first")  # the hooks build derived files
    assert (alice.tree / "auth/jwt/_index.md").is_file()
    untracked = git(alice.tree, "status", "--porcelain", "--untracked-files=all")
    assert "_index.md" not in untracked
