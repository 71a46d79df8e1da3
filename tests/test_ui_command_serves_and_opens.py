"""``brv ui`` as a real process: prints the URL (text or --json), serves it on 127.0.0.1,
opens the browser through $BROWSER unless --no-open, and needs a project."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from conftest import run_brv
from jsonschema import Draft202012Validator

from brv_vc.resources import load_schema
from brv_vc.tree.project import Project


def _start(root: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "ui", *args], cwd=root,
                            env={**os.environ, **(env or {})}, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait(10)


def test_json_gives_the_url_and_the_page_answers_there(seeded: Project) -> None:
    proc = _start(seeded.root, "--no-open", "--json", "--port", "0")
    try:
        assert proc.stdout is not None
        started = json.loads(proc.stdout.readline())
        schema = load_schema("answer-ui")
        assert list(Draft202012Validator(schema).iter_errors(started)) == []
        assert started["ok"] is True
        assert started["version"] == 1
        url = started["url"]
        assert url.startswith(f"http://127.0.0.1:{started['port']}/?token=")
        assert len(url.split("token=")[1]) >= 32
        # as a browser: the token URL sets the cookie and redirects to the page without it
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(url, timeout=30) as reply:
            assert reply.url == url.split("?")[0]
            assert reply.status == 200
            assert "auth/" in reply.read().decode()
    finally:
        _stop(proc)


def test_without_no_open_the_browser_is_asked_to_open_the_url(seeded: Project,
                                                              tmp_path: Path) -> None:
    seen = tmp_path / "opened.txt"
    fake = tmp_path / "fake-browser"
    fake.write_text(f"#!/bin/sh\necho \"$1\" > {seen}\n")
    fake.chmod(0o755)
    proc = _start(seeded.root, env={"BROWSER": str(fake)})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        deadline = time.monotonic() + 20
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        _stop(proc)
    url = line.split(" at ")[1].strip()
    assert seen.read_text().strip() == url


def test_each_run_has_its_own_token(seeded: Project) -> None:
    urls = []
    for _ in range(2):
        proc = _start(seeded.root, "--no-open", "--json")
        try:
            assert proc.stdout is not None
            urls.append(json.loads(proc.stdout.readline())["url"])
        finally:
            _stop(proc)
    assert urls[0].split("token=")[1] != urls[1].split("token=")[1]


def test_outside_a_project_it_says_so_and_exits_1(tmp_path: Path) -> None:
    result = run_brv("ui", "--no-open", cwd=tmp_path)
    assert result.exit_code == 1
    assert "brv init" in result.stderr


@pytest.mark.parametrize("port", ["-1", "70000", "http"])
def test_a_bad_port_is_a_usage_error(seeded: Project, port: str) -> None:
    assert run_brv("ui", "--port", port, "--no-open", cwd=seeded.root).exit_code == 2

