"""The pre-commit hook end to end: real ``git commit`` through the installed shim."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from conftest import brv_process, snapshot
from hooks_support import entry_bytes, git, git_env, head, in_project, log_lines, no_brv_path, write

from brv_vc.interpreter import interpreter
from brv_vc.tree.project import Project
from brv_vc.vc.hooks_install import install

BYPASS = "to commit anyway (not recommended): git commit --no-verify"



def _commit(repo: Path, *extra: str, env: dict[str, str] | None = None):
    return git("commit", "-q", "-m", "change", *extra, cwd=repo, check=False, env=env)


def _refused(repo: Path, before: str, proc) -> str:
    assert proc.returncode == 1, proc.stderr
    assert head(repo) == before
    assert BYPASS in proc.stderr
    return proc.stderr


def test_valid_entry_is_committed_and_refresh_gets_the_staged_paths(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/refresh_tokens.md", entry_bytes("Refresh tokens"))
    write(tree, "auth/jwt/token_rotation.md", entry_bytes("Token rotation", "Changed.\n"))
    git("add", "-A", cwd=tree)
    before = head(tree)
    proc = _commit(tree)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert head(tree) != before
    assert log_lines(tree_repo)[-1] | {"at": None} == {
        "at": None, "hook": "pre-commit", "full_scan": False, "warnings": [],
        "refreshed": ["auth/jwt/refresh_tokens.md", "auth/jwt/token_rotation.md"],
    }
    assert git("status", "--porcelain", cwd=tree).stdout == ""  # nothing tracked was touched


def test_malformed_yaml_is_refused_with_one_message_for_the_file(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/broken.md", "---\ntitle: Broken\ntags: [a, b\n---\nText.\n")
    git("add", "-A", cwd=tree)
    before, files = head(tree), snapshot(tree_repo.root)
    err = _refused(tree, before, _commit(tree))
    assert "brv: commit refused: 1 staged file(s) are not valid knowledge" in err
    assert "  auth/jwt/broken.md: malformed YAML in the frontmatter" in err
    assert "    fix: fix the YAML" in err
    assert snapshot(tree_repo.root) == files
    assert log_lines(tree_repo) == []


def test_derived_and_excluded_files_are_refused(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/_index.md", "# Auth\nsummary\n")
    write(tree, "auth/jwt/token_rotation.abstract.md", "abstract\n")
    write(tree, ".gitignore", "*.local.md\n")
    write(tree, "auth/jwt/notes.local.md", "---\ntitle: Mine\n---\n")
    git("add", "-A", cwd=tree)
    git("add", "-f", "auth/jwt/notes.local.md", cwd=tree)
    err = _refused(tree, head(tree), _commit(tree))
    assert "3 staged file(s)" in err
    assert ("  auth/_index.md: is derived (brv regenerates it on every machine) and is never "
            "committed\n    fix: unstage it with 'git rm --cached auth/_index.md'") in err
    assert "  auth/jwt/token_rotation.abstract.md: is derived" in err
    assert ("  auth/jwt/notes.local.md: is excluded from sync by the ignore rules but was "
            "force-added") in err


def test_conflict_markers_are_refused(tree_repo: Project) -> None:
    tree = tree_repo.tree
    text = (entry_bytes("Token rotation").decode()
            + "<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> feature\n")
    write(tree, "auth/jwt/token_rotation.md", text)
    git("add", "-A", cwd=tree)
    err = _refused(tree, head(tree), _commit(tree))
    assert "  auth/jwt/token_rotation.md: has a merge conflict marker at line 11" in err


def test_a_setext_heading_is_not_a_conflict_marker(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/heading.md", "---\ntitle: Heading\n---\nTitle\n=======\nText.\n")
    git("add", "-A", cwd=tree)
    assert _commit(tree).returncode == 0


def test_the_staged_blob_is_checked_not_the_working_file(tree_repo: Project) -> None:
    tree = tree_repo.tree
    path = write(tree, "auth/jwt/state.md", "---\ntitle: [unclosed\n---\n")
    git("add", "-A", cwd=tree)
    path.write_bytes(entry_bytes("State"))  # fixed on disk, but the bad version is staged
    _refused(tree, head(tree), _commit(tree))

    git("add", "-A", cwd=tree)
    path.write_text("---\ntitle: [unclosed\n---\n")  # good version staged, bad on disk
    assert _commit(tree).returncode == 0


def test_commit_all_uses_the_index_git_hands_to_the_hook(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/token_rotation.md", "---\ntitle: Token rotation\nsummary: [x\n---\n")
    err = _refused(tree, head(tree), _commit(tree, "-a"))
    assert "auth/jwt/token_rotation.md: malformed YAML" in err


def test_hook_impl_outside_a_brv_project_exits_zero_silently(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    result = brv_process("hook-impl", "pre-commit", cwd=tmp_path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


def test_shim_without_a_findable_brv_refuses_a_knowledge_commit_loudly(
    tree_repo: Project,
) -> None:
    tree = tree_repo.tree
    shim = tree / ".git/hooks/pre-commit"
    text = shim.read_text().replace(f"PY={interpreter()}", "PY=/nonexistent/python3")
    shim.write_text(text)
    write(tree, "auth/jwt/broken.md", "---\ntitle: [x\n---\n")
    git("add", "-A", cwd=tree)
    env = git_env(PATH=no_brv_path())
    before = head(tree)
    proc = _commit(tree, env=env)
    assert proc.returncode == 1
    assert head(tree) == before
    assert "brv: commit refused: it changes knowledge (.) but the brv git hook cannot find brv" in (
        proc.stderr)
    assert ("(no brv_vc for the Python recorded at install: /nonexistent/python3; no brv on "
            "PATH") in proc.stderr
    assert "Fix: install brv-vc and run: brv hooks install" in proc.stderr


def test_shim_without_a_findable_brv_lets_a_code_only_commit_through_silently(
        tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    assert brv_process("hooks", "install", cwd=root).exit_code == 0
    shim = root / ".git/hooks/pre-commit"
    shim.write_text(shim.read_text().replace(f"PY={interpreter()}", "PY=/nonexistent/python3"))
    env = git_env(PATH=no_brv_path())
    write(root, "src/code.py", "x = 1\n")
    git("add", "src/code.py", cwd=root)
    before = head(root)
    proc = _commit(root, env=env)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert head(root) != before


def test_in_project_mode_judges_only_the_tree_and_maps_paths(tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    root = project.root
    assert brv("hooks", "install", cwd=root).exit_code == 0
    write(root, "src/merge.py", "<<<<<<< HEAD\nnot ours to judge\n>>>>>>> x\n")
    write(root, "docs/notes.md", "---\ntitle: [bad yaml in a code doc\n---\n")
    write(project.tree, "auth/jwt/sessions.md", entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    proc = _commit(root)
    assert proc.returncode == 0, proc.stderr
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]

    write(project.tree, "auth/jwt/sessions.md", "---\ntitle: [x\n---\n")
    write(project.state, "brv.db", "state")
    git("add", "-A", cwd=root)
    git("add", "-f", ".brv/state/brv.db", cwd=root)
    err = _refused(root, head(root), _commit(root))
    assert "  .brv/context-tree/auth/jwt/sessions.md: malformed YAML" in err
    assert "  .brv/state/brv.db: is per-machine state (.brv/state/" in err


def test_hook_impl_json_reports_the_problems(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/_index.md", "x\n")
    git("add", "-f", "auth/_index.md", cwd=tree)  # ignored by the exclusion rules: force it
    result = brv_process("hook-impl", "pre-commit", "--json", cwd=tree)
    assert result.exit_code == 1
    data = result.json()
    assert data["ok"] is False
    assert data["blocked"] is True
    assert [p["file"] for p in data["problems"]] == ["auth/_index.md"]


def test_shim_falls_back_to_brv_on_path(tree_repo: Project, tmp_path: Path) -> None:
    tree = tree_repo.tree
    shim = tree / ".git/hooks/pre-commit"
    shim.write_text(shim.read_text().replace(f"PY={interpreter()}", "PY=/nonexistent/python3"))
    bin_dir = tmp_path / "bin"
    write(bin_dir, "brv", f'#!/bin/sh\nexec {sys.executable} -m brv_vc "$@"\n').chmod(0o755)
    write(tree, "auth/jwt/broken.md", "---\ntitle: [x\n---\n")
    git("add", "-A", cwd=tree)
    env = git_env(PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    err = _refused(tree, head(tree), _commit(tree, env=env))
    assert "auth/jwt/broken.md: malformed YAML" in err


def test_shim_without_brv_is_silent_outside_a_brv_project(tmp_path: Path) -> None:
    repo = tmp_path / "plain"
    repo.mkdir()
    git("init", "-q", cwd=repo)
    install(repo / ".git/hooks", "/nonexistent/python3")
    write(repo, "a.txt", "a\n")
    git("add", "-A", cwd=repo)
    env = git_env(PATH=no_brv_path())
    proc = _commit(repo, env=env)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_partial_commit_from_a_subfolder_checks_the_temporary_index(tree_repo: Project) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/token_rotation.md", "---\ntitle: [x\n---\n")  # tracked, not staged
    write(tree, "auth/jwt/fine.md", entry_bytes("Fine"))
    git("add", "auth/jwt/fine.md", cwd=tree)
    proc = git("commit", "-q", "-m", "partial", "jwt/token_rotation.md", cwd=tree / "auth",
               check=False)
    err = _refused(tree, head(tree), proc)
    assert "auth/jwt/token_rotation.md: malformed YAML" in err
    assert "fine.md" not in err


def test_pre_commit_writes_folder_summaries_and_leaves_abstracts_and_manifest_queued(
    tree_repo: Project,
) -> None:
    tree = tree_repo.tree
    write(tree, "auth/jwt/refresh_tokens.md", entry_bytes("Refresh tokens"))
    git("add", "-A", cwd=tree)
    assert _commit(tree).returncode == 0
    manifest = tree / "_manifest.json"
    abstract = tree / "auth/jwt/refresh_tokens.abstract.md"
    assert "refresh_tokens" in (tree / "auth/jwt/_index.md").read_text(encoding="utf-8")
    assert not abstract.exists()
    assert not manifest.exists() or "refresh_tokens" not in manifest.read_text(encoding="utf-8")
    # the next refresh (any other hook, curate, merge) catches up
    assert brv_process("hook-impl", "refresh", cwd=tree).exit_code == 0
    assert abstract.exists()
    assert "auth/jwt/refresh_tokens.md" in manifest.read_text(encoding="utf-8")
