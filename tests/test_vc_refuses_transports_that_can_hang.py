"""``brv vc`` refuses git's fd:: and ext:: remotes (fd::3 hung push forever), naming the fix."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from brv_vc.tree.project import Project
from tests.conftest import REPO


@pytest.fixture
def committed(seeded: Project, brv) -> Project:
    assert brv("vc", "init", cwd=seeded.root).exit_code == 0
    assert brv("vc", "add", ".", cwd=seeded.root).exit_code == 0
    assert brv("vc", "commit", "-m", "first", cwd=seeded.root).exit_code == 0
    # stored by plain git (a teammate's script, an old brv): brv vc remote add refuses them
    for name, url in (("pipe", "fd::3"), ("cmd", "ext::sh -c true")):
        subprocess.run(["git", "-C", str(seeded.tree), "remote", "add", name, url], check=True)
    return seeded


@pytest.mark.parametrize(("args", "label", "transport"), [
    (("vc", "push", "pipe", "main"), "push to 'pipe'", "fd"),
    (("vc", "fetch", "pipe"), "fetch from 'pipe'", "fd"),
    (("vc", "pull", "pipe", "main"), "pull from 'pipe'", "fd"),
    (("vc", "push", "cmd", "main"), "push to 'cmd'", "ext"),
])
def test_a_transport_that_can_hang_is_refused(committed: Project, args: tuple[str, ...],
                                              label: str, transport: str) -> None:
    # a real process with a deadline: before, fd::3 waited on brv's own descriptor forever
    proc = subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=committed.root,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, capture_output=True,
                          text=True, timeout=30, check=False)
    assert proc.returncode == 1, proc.stderr
    assert (f"brv: error: {label} refused: the remote's URL uses git's '{transport}::' "
            "transport, which brv never runs") in proc.stderr
    assert "hint: point the remote at a URL (ssh, https, a path): brv vc remote set-url" \
        in proc.stderr
