"""git started without subprocess: stdin fed while stdout and stderr drain, no pipe stalls."""

from __future__ import annotations

from pathlib import Path

import pytest
from hooks_support import git

from brv_vc.vc import git as vcgit
from brv_vc.vc import git_spawn


def test_more_than_a_pipe_holds_goes_in_and_comes_out(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("*.tmp\n")
    paths = [f"folder_{i:06d}/some_rather_long_file_name_{i:06d}.tmp" for i in range(8000)]
    data = "".join(f"{p}\0" for p in paths).encode()
    assert len(data) > 4 * 65536  # git answers while it reads: both pipes fill up
    code, out, err = git_spawn.run_bytes(
        ["git", "-C", str(tmp_path), "check-ignore", "--no-index", "-z", "--stdin"],
        vcgit.no_git_env(), data)
    assert (code, err) == (0, b"")
    assert out.split(b"\0")[:-1] == [p.encode() for p in paths]
    assert vcgit.ignored_paths(tmp_path, [*paths[:3], "kept.md"]) == set(paths[:3])


def test_exit_codes_stderr_and_a_missing_program(tmp_path: Path) -> None:
    code, out, err = git_spawn.run_bytes(["git", "-C", str(tmp_path), "rev-parse", "HEAD"],
                                         vcgit.no_git_env())
    assert (code, out) == (128, b"")
    assert b"not a git repository" in err
    with pytest.raises(FileNotFoundError):
        git_spawn.run_bytes(["no-such-program-brv"], vcgit.no_git_env(), b"x")
