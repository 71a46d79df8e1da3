"""The pre-push shim decides in the shell when `brv vc push` checked the one commit it pushes.

No Python, and none of the temporary file's processes (mktemp, cat, rm), when every pushed
line names the commit in ``BRV_PUSH_CHECKED`` (or a deletion), or when nothing is pushed and
HEAD is that commit; anything else still reaches brv with git's lines intact.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from hooks_support import git, standalone

from brv_vc.vc.hooks_install import render

NULL = "0" * 40


def _shim(tmp: Path) -> tuple[Path, Path, Path]:
    """The rendered pre-push shim, its "Python" (logs its stdin and arguments), the log."""
    log = tmp / "log"
    python = tmp / "python"
    python.write_text(f'#!/bin/sh\n{{ echo "python $*"; {shutil.which("cat")}; }} >> "{log}"\n')
    python.chmod(0o755)
    hooks = tmp / "hooks"
    hooks.mkdir()
    shim = hooks / "pre-push"
    shim.write_bytes(render("pre-push", str(python)).replace(
        b"PKG='", b"PKG='" + str(python).encode() + b"'  # was: '", 1))
    shim.chmod(0o755)
    bin_dir = tmp / "bin"  # mktemp, cat and rm that log their use
    bin_dir.mkdir()
    for name in ("mktemp", "cat", "rm"):
        real = shutil.which(name)
        (bin_dir / name).write_text(f'#!/bin/sh\necho "{name}" >> "{log}"\nexec {real} "$@"\n')
        (bin_dir / name).chmod(0o755)
    return shim, log, bin_dir


def _run(shim: Path, bin_dir: Path, cwd: Path, stdin: str, checked: str | None) -> int:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRV_", "GIT_"))}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env['PATH']}"
    if checked is not None:
        env["BRV_PUSH_CHECKED"] = checked
    done = subprocess.run([str(shim), "origin", "url"], cwd=cwd, input=stdin, text=True,
                          env=env, capture_output=True, check=False)
    return done.returncode


def test_the_checked_commit_starts_nothing_else_reaches_brv_with_its_lines(
        tmp_path: Path) -> None:
    project = standalone(tmp_path)
    head = git("rev-parse", "HEAD", cwd=project.tree).stdout.strip()
    shim, log, bin_dir = _shim(tmp_path)
    line = f"refs/heads/main {head} refs/heads/main {NULL}\n"
    deletion = f"(delete) {NULL} refs/heads/old {head}\n"

    for stdin in (line, line + deletion, ""):  # "": up to date, and HEAD is the checked one
        assert _run(shim, bin_dir, project.tree, stdin, head) == 0
        assert not log.exists(), (stdin, log.read_text())

    other = "1" * 40
    for stdin, checked in ((line, other), ("", other), (line, None),
                           (line + f"refs/heads/x {other} refs/heads/x {NULL}\n", head)):
        log.unlink(missing_ok=True)
        assert _run(shim, bin_dir, project.tree, stdin, checked) == 0
        seen = log.read_text()
        assert " hook-impl pre-push origin url\n" + stdin in seen, seen
