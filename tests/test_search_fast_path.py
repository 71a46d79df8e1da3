"""`python -m brv_vc search|query` skips click; it must print what the click CLI prints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import brv_process
from retrieval_util import load_labelled

from brv_vc.cli.fast import _parse
from brv_vc.tree.project import Project

ENV = {"BRV_NOW": "2026-01-20T00:00:00Z"}


@pytest.fixture
def twins(project: Project, tmp_path: Path) -> tuple[Path, Path]:
    load_labelled(project)
    other = tmp_path / "twin"
    shutil.copytree(project.root, other)
    return project.root, other


@pytest.mark.parametrize(
    "args",
    [
        ("search", "stripe webhook"),
        ("search", "token", "--json", "--limit", "3"),
        ("search", "--scope=auth", "token"),
        ("query", "cursor pagination", "--json"),
    ],
)
def test_fast_path_prints_what_click_prints(
    twins: tuple[Path, Path], brv, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...]
) -> None:
    fast_root, click_root = twins
    fast = brv_process(*args, cwd=fast_root, env=ENV)
    monkeypatch.setenv("BRV_NOW", ENV["BRV_NOW"])
    slow = brv(*args, cwd=click_root)
    assert fast.exit_code == slow.exit_code == 0
    if args[0] == "query":
        a, b = json.loads(fast.stdout), json.loads(slow.stdout)
        a.pop("duration_ms")
        b.pop("duration_ms")
        assert a == b
    else:
        assert fast.stdout == slow.stdout


def test_errors_and_help_go_through_click(project: Project) -> None:
    bad = brv_process("search", "", cwd=project.root)
    assert bad.exit_code == 1
    assert "brv: error: the query is empty" in bad.stderr
    helped = brv_process("search", "--help", cwd=project.root)
    assert helped.exit_code == 0
    assert "Example:" in helped.stdout


def test_parser_declines_what_it_does_not_know() -> None:
    assert _parse(["search", "x", "--limit", "5"]) == ("search", None, "x", {"limit": 5}, False)
    assert _parse(["-C", "/p", "query", "q", "--json"]) == ("query", "/p", "q", {}, True)
    for argv in (
        ["search"],
        ["search", "a", "b"],
        ["search", "x", "--limit"],
        ["search", "x", "--bogus"],
        ["search", "x", "--limit", "ten"],
        ["index"],
        ["query", "x", "--max-iterations", "99"],
    ):
        assert _parse(argv) is None


@pytest.mark.parametrize("args", [("vc", "status"), ("vc", "status", "--json")])
def test_vc_status_fast_path_prints_what_click_prints(
    project: Project, brv, args: tuple[str, ...]
) -> None:
    assert brv("vc", "init", cwd=project.root).exit_code == 0
    entry = project.tree / "auth" / "jwt" / "token_rotation.md"
    entry.parent.mkdir(parents=True)
    entry.write_text("---\ntitle: Token rotation\n---\nRotate keys.\n", encoding="utf-8")
    fast = brv_process(*args, cwd=project.root)
    slow = brv(*args, cwd=project.root)
    assert fast.exit_code == slow.exit_code == 0
    assert "auth/" in fast.stdout
    assert fast.stdout == slow.stdout


def test_vc_status_fast_path_declines_other_forms(project: Project) -> None:
    # not under version control: the click path reports the error (exit 1, a hint)
    refused = brv_process("vc", "status", cwd=project.root)
    assert refused.exit_code == 1
    assert "brv: error:" in refused.stderr
    helped = brv_process("vc", "status", "--help", cwd=project.root)
    assert helped.exit_code == 0
    assert "Example:" in helped.stdout


@pytest.mark.parametrize("command", ["search", "query"])
@pytest.mark.parametrize("edited", [False, True])
def test_a_cold_search_loads_neither_click_nor_yaml_nor_jsonschema_nor_dataclasses(
    project: Project, edited: bool, command: str
) -> None:
    """What the cold path imports is what a cold search pays for (PyYAML alone is ~15 ms)."""
    import subprocess
    import sys

    from conftest import REPO

    load_labelled(project)
    assert brv_process("search", "token", cwd=project.root, env=ENV).exit_code == 0
    if edited:  # a changed file is read and parsed: the parsers may load then, not before
        target = project.tree / "auth/jwt/token_rotation.md"
        target.write_bytes(target.read_bytes() + b"\nEdited.\n")
    script = (f"import runpy, sys; sys.argv = ['brv', '{command}', 'token', '--json']\n"
              "try:\n    runpy.run_module('brv_vc', run_name='__main__')\n"
              "except SystemExit:\n    pass\n"
              "print(sorted(m for m in ('click', 'yaml', 'jsonschema', 'dataclasses')"
              " if m in sys.modules),"
              " file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", script], cwd=project.root, text=True,
                          capture_output=True, env={**ENV, "PYTHONPATH": str(REPO),
                                                    "PATH": "/usr/bin:/bin"}, check=False)
    loaded = done.stderr.strip().splitlines()[-1]
    # dataclasses (with inspect, ~15 ms) too: the cold path's records are NamedTuples, and so
    # are the parsers' of a changed file (format.Entry); a canonical file needs no PyYAML
    assert loaded == "[]", done.stderr
