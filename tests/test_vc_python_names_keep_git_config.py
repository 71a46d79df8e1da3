"""brv started as `python` and as `python3` of one virtualenv records one interpreter: switching
names never rewrites the clone's git config nor makes the next command diagnose the hooks again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from hooks_support import standalone

from brv_vc.interpreter import interpreter

FOLDER = Path(sys.executable).parent
NAMES = [FOLDER / n for n in ("python", "python3") if (FOLDER / n).exists()]
ONE_PYTHON = len(NAMES) == 2 and len({os.path.realpath(n) for n in NAMES}) == 1


def _brv(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    proc = subprocess.run([str(python), "-m", "brv_vc", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    return proc


def test_the_recorded_interpreter_is_this_python_by_a_stable_name() -> None:
    recorded = interpreter()
    assert os.path.dirname(recorded) == os.path.dirname(sys.executable)
    assert os.path.realpath(recorded) == os.path.realpath(sys.executable)
    if ONE_PYTHON:
        assert os.path.basename(recorded) == "python3"


@pytest.mark.skipif(not ONE_PYTHON, reason="needs python and python3 linking one interpreter")
def test_switching_python_names_leaves_git_config_and_the_hooks_notice_alone(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    python, python3 = NAMES
    _brv(python, "hooks", "install", cwd=project.root)
    _brv(python, "vc", "status", cwd=project.root)
    config = project.tree / ".git" / "config"
    notice = project.state / "hooks-notice"
    before = (config.read_bytes(), config.stat().st_mtime_ns, notice.read_bytes())

    for name in (python3, python, python3):
        out = _brv(name, "vc", "status", cwd=project.root)
        assert "warning" not in out.stderr
    assert (config.read_bytes(), config.stat().st_mtime_ns, notice.read_bytes()) == before
    hooks = _brv(python, "hooks", "status", "--json", cwd=project.root)
    assert '"installed"' in hooks.stdout or '"ok": true' in hooks.stdout
