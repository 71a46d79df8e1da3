"""A hook the running brv command does itself (``BRV_REFRESHING``) does nothing, decided by one
rule (``hook_env.done_by_command``): the shell shims decide as ``run_hook`` does on the same
environments, and the pre-commit framework's ``refresh``, once mapped to post-merge or
post-checkout, is skipped too (a ``brv vc pull`` under the framework refreshed twice)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from conftest import brv_process, run_brv
from hooks_support import entry_bytes, git, standalone, write

from brv_vc.services.vc import run_hook
from brv_vc.services.vc.hook_env import REFRESHING_ENV
from brv_vc.vc.hooks_install import render

NOW = datetime(2026, 1, 20, tzinfo=UTC)
HOOKS = ("pre-commit", "commit-msg", "pre-push", "post-merge", "post-checkout", "post-rewrite")
VALUES = ("", "post-merge", "post-checkout,post-merge", ",post-merge,", "post-merge ",
          " post-merge", "post-merg", "POST-MERGE", "refresh", "pre-commit", "post-rewrite,x",
          "commit-msg,pre-push", ",", "post-checkout;post-merge")
SKIPPED = "done by the running brv command"


def _shim_skips(hook: str, tree: Path, value: str) -> bool:
    """Whether the shipped shim exits before looking for brv (brv is nowhere to be found)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["HOME"], REFRESHING_ENV: value,
           "GIT_CONFIG_GLOBAL": os.environ["GIT_CONFIG_GLOBAL"], "GIT_CONFIG_NOSYSTEM": "1"}
    shim = tree.parent / f"shim-{hook}"  # as 'brv hooks install' renders it, brv nowhere
    shim.write_bytes(render(hook, ""))
    proc = subprocess.run(["sh", str(shim)], cwd=tree, env=env, input="",
                          capture_output=True, text=True, check=False)
    looked = "cannot find brv" in proc.stderr
    assert looked or proc.stderr == "", proc.stderr
    return not looked


def test_the_shims_decide_as_run_hook(tmp_path: Path) -> None:
    if shutil.which("brv", path="/usr/bin:/bin"):
        pytest.skip("a brv on the system PATH: the shim would run it")
    project = standalone(tmp_path)
    write(project.root, ".brv/context-tree/auth/jwt/new.md", entry_bytes("New"))
    git("add", "-A", cwd=project.tree)  # pre-commit then has knowledge to refuse unchecked
    for hook in HOOKS:
        for value in VALUES:
            run = run_hook(project.tree, hook, (), NOW, refreshing=value)
            assert _shim_skips(hook, project.tree, value) == (run.skipped == SKIPPED), (hook, value)
    assert run_hook(project.tree, "post-merge", (), NOW, refreshing="post-merge").skipped == SKIPPED


@pytest.mark.parametrize(("variables", "hook"), [
    ({"PRE_COMMIT_IS_SQUASH_MERGE": "0"}, "post-merge"),
    ({"PRE_COMMIT_CHECKOUT_TYPE": "1", "PRE_COMMIT_FROM_REF": "HEAD", "PRE_COMMIT_TO_REF": "HEAD"},
     "post-checkout"),
])
def test_the_frameworks_refresh_skips_what_the_command_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variables: dict[str, str],
        hook: str) -> None:
    project = standalone(tmp_path)
    env = {**variables, REFRESHING_ENV: hook}
    log = project.state / "hooks.log"
    fast = brv_process("hook-impl", "refresh", cwd=project.tree, env=env)  # the fast path
    assert (fast.exit_code, fast.stderr) == (0, "")
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    slow = run_brv("hook-impl", "refresh", "--json", cwd=project.tree)  # click's hook-impl
    assert slow.exit_code == 0, slow.stderr
    assert json.loads(slow.stdout)["skipped"] == SKIPPED
    assert not log.exists() or log.read_text() == ""  # nothing refreshed, nothing logged
