"""post-merge, post-checkout and post-rewrite end to end: real pull, merge, checkout, rebase."""

from __future__ import annotations

from pathlib import Path

from conftest import brv_process
from hooks_support import entry_bytes, git, in_project, log_lines, standalone, write

from brv_vc.services.init import init_project
from brv_vc.tree.project import Project


def _installed(project: Project, brv) -> Project:
    assert brv("hooks", "install", cwd=project.root).exit_code == 0
    return project


def _commit_all(repo: Path, message: str) -> None:
    git("add", "-A", cwd=repo)
    git("commit", "-q", "--no-verify", "-m", message, cwd=repo)


def _runs(project: Project, hook: str) -> list[dict[str, object]]:
    return [line for line in log_lines(project) if line["hook"] == hook]


def test_git_pull_refreshes_only_the_pulled_paths(tmp_path: Path, brv) -> None:
    author = standalone(tmp_path, "author")
    remote = tmp_path / "remote.git"
    git("clone", "-q", "--bare", str(author.tree), str(remote), cwd=tmp_path)
    git("remote", "add", "origin", str(remote), cwd=author.tree)
    git("fetch", "-q", "origin", cwd=author.tree)
    reader_root = tmp_path / "reader"
    reader_root.mkdir()
    init_project(reader_root)
    reader = Project(reader_root)
    reader.tree.rmdir()
    git("clone", "-q", str(remote), str(reader.tree), cwd=tmp_path)
    _installed(reader, brv)

    write(author.tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation", "New.\n"))
    write(author.tree, "billing/invoices/vat.md", entry_bytes("VAT"))
    _commit_all(author.tree, "two changes")
    git("push", "-q", "origin", "HEAD:main", cwd=author.tree)

    proc = git("pull", "-q", "--no-rebase", "origin", "main", cwd=reader.tree)
    assert proc.stderr == ""
    assert _runs(reader, "post-merge")[-1]["refreshed"] == [
        "auth/jwt/token_rotation.md", "billing/invoices/vat.md"]
    assert (reader.tree / "billing/invoices/vat.md").exists()


def test_merge_and_squash_merge(tmp_path: Path, brv) -> None:
    project = _installed(standalone(tmp_path), brv)
    tree = project.tree
    git("checkout", "-q", "-b", "feature", cwd=tree)
    write(tree, "auth/jwt/feature.md", entry_bytes("Feature"))
    _commit_all(tree, "feature")
    git("checkout", "-q", "main", cwd=tree)
    write(tree, "ops/deploy/rollbacks.md", entry_bytes("Rollbacks"))
    _commit_all(tree, "main work")

    git("merge", "-q", "--no-edit", "feature", cwd=tree)
    assert _runs(project, "post-merge")[-1]["refreshed"] == ["auth/jwt/feature.md"]

    git("checkout", "-q", "-b", "other", "HEAD~1", cwd=tree)
    git("merge", "-q", "--squash", "feature", cwd=tree)
    assert _runs(project, "post-merge")[-1]["refreshed"] == ["auth/jwt/feature.md"]


def test_checkout_of_a_branch_refreshes_the_difference_and_file_checkouts_are_skipped(
    tmp_path: Path, brv
) -> None:
    project = _installed(standalone(tmp_path), brv)
    tree = project.tree
    git("checkout", "-q", "-b", "feature", cwd=tree)
    write(tree, "auth/jwt/feature.md", entry_bytes("Feature"))
    _commit_all(tree, "feature")
    git("checkout", "-q", "main", cwd=tree)
    assert _runs(project, "post-checkout")[-1]["refreshed"] == ["auth/jwt/feature.md"]

    count = len(log_lines(project))
    write(tree, "auth/jwt/token_rotation.md", "scribble")
    git("checkout", "--", "auth/jwt/token_rotation.md", cwd=tree)  # a file checkout (flag 0)
    git("checkout", "-q", "-b", "same-commit", cwd=tree)  # HEAD does not move: nothing changed
    assert [line["refreshed"] for line in log_lines(project)[count:]] == [[]]


def test_rebase_refreshes_once_at_the_end_and_amend_refreshes_its_paths(
    tmp_path: Path, brv
) -> None:
    project = _installed(standalone(tmp_path), brv)
    tree = project.tree
    git("checkout", "-q", "-b", "feature", cwd=tree)
    write(tree, "auth/jwt/feature.md", entry_bytes("Feature"))
    _commit_all(tree, "feature")
    git("checkout", "-q", "main", cwd=tree)
    write(tree, "ops/deploy/rollbacks.md", entry_bytes("Rollbacks"))
    _commit_all(tree, "main work")
    git("checkout", "-q", "feature", cwd=tree)
    count = len(log_lines(project))

    git("rebase", "-q", "main", cwd=tree)
    runs = log_lines(project)[count:]
    assert [(r["hook"], r["refreshed"]) for r in runs] == [
        ("post-rewrite", ["ops/deploy/rollbacks.md"])]

    write(tree, "auth/jwt/feature.md", entry_bytes("Feature", "Amended.\n"))
    git("add", "-A", cwd=tree)
    git("commit", "-q", "--amend", "--no-edit", cwd=tree)
    assert [(r["hook"], r["refreshed"]) for r in log_lines(project)[-2:]] == [
        ("pre-commit", ["auth/jwt/feature.md"]), ("post-rewrite", ["auth/jwt/feature.md"])]


def test_in_project_checkout_maps_to_tree_paths_and_ignores_code(tmp_path: Path, brv) -> None:
    project = _installed(in_project(tmp_path), brv)
    root = project.root
    git("checkout", "-q", "-b", "feature", cwd=root)
    write(root, "src/feature.py", "x = 1\n")
    write(project.tree, "auth/jwt/feature.md", entry_bytes("Feature"))
    _commit_all(root, "feature")
    git("checkout", "-q", "main", cwd=root)
    assert _runs(project, "post-checkout")[-1]["refreshed"] == ["auth/jwt/feature.md"]


def test_linked_worktree_runs_the_shared_hooks_for_its_own_project(tmp_path: Path, brv) -> None:
    project = _installed(in_project(tmp_path), brv)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", "-b", "side", str(linked), cwd=project.root)
    other = Project(linked)
    assert _runs(other, "post-checkout")[-1]["full_scan"] is True  # worktree add: all is new
    write(other.tree, "auth/jwt/side.md", entry_bytes("Side"))
    git("add", "-A", cwd=linked)
    git("commit", "-q", "-m", "side", cwd=linked)
    assert _runs(other, "pre-commit")[-1]["refreshed"] == ["auth/jwt/side.md"]
    assert _runs(project, "pre-commit") == []


def test_post_hooks_fail_open(tmp_path: Path, brv) -> None:
    project = _installed(standalone(tmp_path), brv)
    result = brv_process("hook-impl", "post-checkout", "1" * 40, "2" * 40, "1", cwd=project.tree)
    assert result.exit_code == 0
    assert result.stderr == (
        f"brv: warning: post-checkout hook could not run: git does not know commit {'1' * 40}\n"
    )


def test_framework_refresh_maps_pre_commit_environment(tmp_path: Path, brv) -> None:
    project = _installed(standalone(tmp_path), brv)
    tree = project.tree
    first = git("rev-parse", "HEAD", cwd=tree).stdout.strip()
    write(tree, "auth/jwt/feature.md", entry_bytes("Feature"))
    _commit_all(tree, "feature")
    second = git("rev-parse", "HEAD", cwd=tree).stdout.strip()
    env = {"PRE_COMMIT_FROM_REF": first, "PRE_COMMIT_TO_REF": second,
           "PRE_COMMIT_CHECKOUT_TYPE": "1"}
    result = brv_process("hook-impl", "refresh", "--json", cwd=tree, env=env)
    assert result.exit_code == 0, result.stderr
    assert result.json()["hook"] == "post-checkout"
    assert result.json()["refreshed"] == ["auth/jwt/feature.md"]
    plain = brv_process("hook-impl", "refresh", "--json", cwd=tree)
    assert plain.json()["full_scan"] is True


def test_legacy_post_rewrite_and_brv_both_read_stdin(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    hooks_dir = project.tree / ".git/hooks"
    legacy = write(hooks_dir, "post-rewrite",
                   "#!/bin/sh\necho \"$1\" > \"$(git rev-parse --git-dir)/legacy.txt\"\n"
                   "cat >> \"$(git rev-parse --git-dir)/legacy.txt\"\n")
    legacy.chmod(0o755)
    _installed(project, brv)
    old = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    write(project.tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation", "Again.\n"))
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "--amend", "--no-edit", cwd=project.tree)
    new = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    assert (project.tree / ".git/legacy.txt").read_text() == f"amend\n{old} {new}\n"
    assert _runs(project, "post-rewrite")[-1]["refreshed"] == ["auth/jwt/token_rotation.md"]


def test_a_legacy_post_checkout_keeps_its_exit_status(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    legacy = write(project.tree / ".git/hooks", "post-checkout", "#!/bin/sh\nexit 3\n")
    legacy.chmod(0o755)
    _installed(project, brv)
    proc = git("checkout", "-q", "-b", "other", cwd=project.tree, check=False)
    assert proc.returncode == 1  # git reports a failed post-checkout as 1, as before brv
    assert _runs(project, "post-checkout")[-1]["refreshed"] == []  # brv still ran
