"""A 1-entry commit's pre-commit hook starts its git processes without importing subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from hooks_support import entry_bytes, git, in_project, log_lines, write

HEAVY = ("subprocess", "click", "jsonschema", "yaml")


def test_pre_commit_imports_none_of_them(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    root = project.root
    write(project.tree, "auth/jwt/sessions.md", entry_bytes("Sessions"))
    git("add", "-A", cwd=root)
    git("write-tree", cwd=root)  # the cache-tree git commit writes before its hook
    script = ("import runpy, sys; sys.argv = ['brv', 'hook-impl', 'pre-commit']\n"
              "try:\n    runpy.run_module('brv_vc', run_name='__main__')\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env.update(PYTHONPATH=str(REPO), GIT_INDEX_FILE=str(root / ".git" / "index"))
    done = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, text=True,
                          capture_output=True, check=False, timeout=120)
    assert done.stderr.strip().splitlines()[-1] == "0 []", done.stderr
    assert log_lines(project)[-1]["refreshed"] == ["auth/jwt/sessions.md"]  # it did its work
