"""brv installs and works under every Python the classifiers name (3.12, 3.13 beside the 3.11
of the suite): each interpreter in BRV_TEST_PYTHONS gets a fresh virtualenv, ``pip install``
of this checkout, then init, curate, search and an in-project commit through real git.

Opt-in (about a minute per interpreter, and pip needs the package index):
``BRV_TEST_PYTHONS=/path/to/python3.12,/path/to/python3.13 pytest --no-cov tests/test_python_versions.py``
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import REPO

PYTHONS = [p for p in os.environ.get("BRV_TEST_PYTHONS", "").split(",") if p.strip()]


@pytest.mark.slow
@pytest.mark.skipif(not PYTHONS, reason="set BRV_TEST_PYTHONS to the interpreters to try")
@pytest.mark.parametrize("python", PYTHONS or ["none"])
def test_brv_installs_and_runs(python: str, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYTHONPATH", raising=False)  # only the installed copy counts
    venv = tmp_path / "venv"
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    had_build = (REPO / "build").exists()
    try:
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", str(REPO)], check=True)
    finally:
        if not had_build:
            shutil.rmtree(REPO / "build", ignore_errors=True)
    project = tmp_path / "proj"
    project.mkdir()
    brv = str(venv / "bin" / "brv")

    def run(*args: str) -> str:
        proc = subprocess.run([brv, *args], cwd=project, capture_output=True, text=True,
                              check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=project, check=True)
    run("init")
    run("curate", "add", "auth/jwt", "--title", "Rotation", "--content", "Single use tokens.")
    hits = json.loads(run("search", "tokens", "--json"))["results"]
    assert hits[0]["path"] == "auth/jwt/rotation.md"
    run("vc", "init", "--in-project", "--no-hooks")
    run("vc", "add")
    run("vc", "commit", "-m", "knowledge")
    assert json.loads(run("vc", "log", "--json"))["commits"][0]["subject"] == "knowledge"
