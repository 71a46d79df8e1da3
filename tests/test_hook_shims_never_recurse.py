"""A brv shim never runs itself, whatever its file name, and a guard variable stops any loop."""

from __future__ import annotations

import sys
from pathlib import Path

from hooks_support import git, head, in_project, write
from manager_support import BROKEN, brv_cli, commit, ok, pre_commit, run

from brv_vc.interpreter import interpreter
from brv_vc.vc.hooks_install import MARKER, render


def _broken_staged(root: Path) -> None:
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)


def test_shim_renamed_to_legacy_runs_brv_once_and_not_itself(tmp_path: Path) -> None:
    """What the pre-commit framework's migration mode does: our shim as <name>.legacy."""
    root = in_project(tmp_path).root
    hooks = root / ".git/hooks"
    write(hooks, "pre-commit.legacy", render("pre-commit", sys.executable)).chmod(0o755)
    write(hooks, "pre-commit", '#!/bin/sh\n"$(dirname "$0")/pre-commit.legacy" "$@" || exit $?\n'
          'echo manager-ran >> "$(dirname "$0")/manager.log"\n').chmod(0o755)
    before = head(root)
    _broken_staged(root)
    refused = commit(root, "broken", tmp_path)  # a loop would hit the timeout
    assert refused.returncode == 1
    assert refused.stderr.count("auth/jwt/broken.md: malformed YAML") == 1
    assert head(root) == before
    git("rm", "-q", "--cached", ".brv/context-tree/auth/jwt/broken.md", cwd=root)
    write(root, "src/b.py", "b = 1\n")
    git("add", "src/b.py", cwd=root)
    ok(commit(root, "fine", tmp_path))
    assert (hooks / "manager.log").read_text() == "manager-ran\n"


def test_a_loop_through_another_script_is_stopped_by_the_guard(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    ok(brv_cli("hooks", "install", cwd=root))
    # someone else's legacy hook that (wrongly) runs the hook again: an endless loop before
    write(root / ".git/hooks", "post-checkout.legacy",
          '#!/bin/sh\nexec "$(dirname "$0")/post-checkout" "$@"\n').chmod(0o755)
    proc = ok(run("git", "checkout", "-q", "-b", "feature", cwd=root))
    assert "the brv 'post-checkout' hook was started from inside itself" in proc.stderr


def test_install_upgrades_an_old_shim_the_framework_runs_as_legacy(tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    write(root, ".pre-commit-config.yaml", "repos: []\n")
    git("add", ".pre-commit-config.yaml", cwd=root)
    ok(brv_cli("hooks", "install", cwd=root))
    ok(pre_commit("install", cwd=root, home=home))
    legacy = root / ".git/hooks/pre-commit.legacy"
    legacy.write_text(f"#!/bin/sh\n# {MARKER}\nPY=''\nexec \"$0\" \"$@\"  # an older shim\n")
    result = ok(brv_cli("hooks", "install", "--json", cwd=root))
    assert '"manager": "pre-commit"' in result.stdout
    assert legacy.read_bytes() == render("pre-commit", interpreter())
    write(root, ".brv/context-tree/auth/jwt/new.md", "---\ntitle: New\n---\nText.\n")
    git("add", "-A", cwd=root)
    ok(commit(root, "new", home))
