"""With brv gone, a shim's failed legacy hook stops the blocking hooks at once (BLOCKING).

The rule which hooks may block has one home (``vc/hook_missing.py`` ``BLOCKING``, read by
``run_hook`` through ``hook_env``); the shim gets it rendered in. A pin of behaviour kept
through that move: pre-commit and pre-push end with the legacy hook's status and say nothing
more; the other hooks go on to the warning and then exit with that status.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from hooks_support import in_project, no_brv_path

from brv_vc.vc.hook_missing import BLOCKING
from brv_vc.vc.hooks_install import HOOK_NAMES, render


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_a_failed_legacy_hook_stops_only_the_blocking_hooks(tmp_path: Path, name: str) -> None:
    root = in_project(tmp_path).root
    folder = tmp_path / "hooks"
    folder.mkdir()
    shim = folder / name
    shim.write_bytes(render(name, str(tmp_path / "gone" / "python")))
    (folder / f"{name}.legacy").write_text("#!/bin/sh\necho legacy ran >&2\nexit 3\n")
    for path in (shim, folder / f"{name}.legacy"):
        path.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BRV_", "GIT_"))}
    proc = subprocess.run([str(shim)], cwd=root, env={**env, "PATH": no_brv_path()}, input="",
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 3
    assert proc.stderr.startswith("legacy ran\n")
    assert ("cannot find brv" in proc.stderr) == (name not in BLOCKING), proc.stderr
