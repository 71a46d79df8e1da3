"""The hooks start only the git processes whose answer the files cannot give."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hooks_support import entry_bytes, git, git_env, head, in_project, log_lines, write
from vc_helpers import traced_gits

ENTRY = ".brv/context-tree/auth/jwt/sessions.md"


def _traced_commit(root: Path, trace: Path) -> subprocess.CompletedProcess[str]:
    return git("commit", "-q", "-m", "change", cwd=root, check=False,
               env=git_env(GIT_TRACE=str(trace)))


def _hook_gits(trace: Path) -> list[str]:
    """The git commands the hooks ran (git commit's own and its maintenance left out)."""
    return [cmd for cmd in traced_gits(trace) if not cmd.startswith(("commit ", "maintenance "))]


def test_an_entry_staged_as_the_work_tree_holds_it_needs_no_cat_file_nor_rev_parse(
        tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    root = project.root
    assert brv("hooks", "install", cwd=root).exit_code == 0
    write(root, ENTRY, entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    trace = tmp_path / "trace"
    done = _traced_commit(root, trace)
    assert (done.returncode, done.stderr) == (0, "")
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]
    ran = _hook_gits(trace)
    assert [cmd.split()[0] for cmd in ran] == ["diff", "check-ignore"], ran


def test_the_staged_bytes_are_judged_when_the_work_tree_holds_others(tmp_path: Path,
                                                                      brv) -> None:
    project = in_project(tmp_path)
    root = project.root
    assert brv("hooks", "install", cwd=root).exit_code == 0
    path = write(root, ENTRY, "---\ntitle: [unclosed\n---\n")
    git("add", "-A", cwd=root)
    path.write_bytes(entry_bytes("Sessions"))  # fixed on disk, the bad version staged
    trace = tmp_path / "trace"
    before = head(root)
    refused = _traced_commit(root, trace)
    assert refused.returncode == 1
    assert f"  {ENTRY}: malformed YAML" in refused.stderr
    assert head(root) == before
    # the staged blob is loose: read from the object store itself (git.read_blobs), no cat-file
    assert not any(cmd.startswith("cat-file") for cmd in _hook_gits(trace))

    git("add", "-A", cwd=root)
    path.write_text("---\ntitle: [unclosed\n---\n")  # the good version staged, bad on disk
    assert _traced_commit(root, trace).returncode == 0


def test_a_hook_run_below_the_top_finds_the_repository(tmp_path: Path) -> None:
    """Not where git runs hooks: the repository is located as any command does (repo.locate:
    a plain one from its files, vc/repo.plain_top), and the right entry is refreshed."""
    project = in_project(tmp_path)
    root = project.root
    write(root, ENTRY, entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    trace = tmp_path / "trace"
    env = git_env(GIT_INDEX_FILE=str(root / ".git" / "index"), GIT_TRACE=str(trace))
    done = subprocess.run([sys.executable, "-m", "brv_vc", "hook-impl", "pre-commit"],
                          cwd=root / "src", env=env, capture_output=True, text=True,
                          timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]
    assert "rev-parse" not in trace.read_text(encoding="utf-8")


def test_post_merge_and_a_file_checkout_do_not_ask_whether_a_rebase_runs(tmp_path: Path,
                                                                          brv) -> None:
    """Only post-checkout (of a branch) and post-rewrite skip during a rebase."""
    project = in_project(tmp_path)
    root = project.root
    assert brv("hooks", "install", cwd=root).exit_code == 0
    git("checkout", "-q", "-b", "feature", cwd=root)
    write(root, ENTRY, entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "feature", cwd=root)
    git("checkout", "-q", "-", cwd=root)
    trace = tmp_path / "trace"
    merged = git("merge", "-q", "--ff-only", "feature", cwd=root,
                 env=git_env(GIT_TRACE=str(trace)))
    assert merged.stderr == ""
    assert log_lines(project)[-1]["hook"] == "post-merge"
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]
    assert "--git-path" not in trace.read_text(encoding="utf-8")

    write(root, "src/app.py", "print('changed')\n")
    git("checkout", "--", "src/app.py", cwd=root, env=git_env(GIT_TRACE=str(trace)))
    assert "--git-path" not in trace.read_text(encoding="utf-8")
    git("checkout", "-q", "feature", cwd=root, env=git_env(GIT_TRACE=str(trace)))
    # a branch checkout asks whether a rebase runs of git's files (KnowledgeRepo.rebasing)
    assert "--git-path" not in trace.read_text(encoding="utf-8")
