"""Hooks installed by a brv before the one template (the 155-line shim, 609dfc5) keep working
with this brv, and 'brv hooks install' rewrites them as the template renders them."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from hooks_support import git, head, in_project, write
from manager_support import BROKEN, brv_cli, commit, ok

from brv_vc.interpreter import interpreter
from brv_vc.vc.hooks_install import _MAIN, HOOK_NAMES, render

OLD = Path(__file__).parent / "fixtures" / "hook-shim-609dfc5.sh"


def _old_shims(hooks: Path) -> None:
    """What the old installer wrote: the shim with its name, interpreter and package."""
    for name in HOOK_NAMES:
        text = OLD.read_text().replace("HOOK=pre-commit", f"HOOK={name}", 1)
        text = text.replace("PY=''", f"PY={shlex.quote(sys.executable)}", 1)
        text = text.replace("PKG=''", f"PKG={shlex.quote(str(_MAIN))}", 1)
        write(hooks, name, text).chmod(0o755)


def test_an_old_shim_still_refuses_broken_knowledge_and_chains_once(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    hooks = root / ".git/hooks"
    _old_shims(hooks)
    write(hooks, "pre-commit.legacy", f'#!/bin/sh\necho legacy >> "{tmp_path}/legacy.log"\n'
          ).chmod(0o755)
    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    refused = commit(root, "broken", tmp_path)
    assert refused.returncode == 1
    assert refused.stderr.count("auth/jwt/broken.md: malformed YAML") == 1
    assert head(root) == before
    # the old shim ran the legacy hook itself; this brv's Python did not run it again
    assert (tmp_path / "legacy.log").read_text() == "legacy\n"


def test_install_rewrites_old_shims_as_the_template(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    hooks = root / ".git/hooks"
    _old_shims(hooks)
    result = ok(brv_cli("hooks", "install", cwd=root))
    assert "upgraded" in result.stdout
    for name in HOOK_NAMES:
        assert (hooks / name).read_bytes() == render(name, interpreter())
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    assert commit(root, "broken", tmp_path).returncode == 1
