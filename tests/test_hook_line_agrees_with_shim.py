"""The hook managers' line and the rendered shim, run on the same cases, do the same thing.

Two launchers start brv's hooks: the shim rendered from hooks/hook.sh and the one line brv
writes into husky's files, lefthook's and the pre-commit framework's config
(``hook_managers.hook_line``, run here as the framework runs it: ``sh -c LINE brv ARGS``).
With brv missing, both refuse a commit that stages knowledge with the same words and exit 1
(``vc/hook_missing.py``, the one home of that rule) and let everything else through; with
brv there, both start it with the same ``hook-impl`` arguments; both skip a hook the running
brv command does itself (``BRV_REFRESHING``) before any Python starts; both find brv by
the same rule (``hook_missing.found``: a stat of the recorded package, no Python started to
ask unless that file is gone). The "Python" both find is a script that records how it was
started.
"""

from __future__ import annotations

import os
import shlex
import subprocess
from pathlib import Path

import pytest
from hooks_support import git, in_project, no_brv_path, standalone, write

from brv_vc.vc.hook_managers import PACKAGE_KEY, PYTHON_KEY, hook_line
from brv_vc.vc.hooks_install import HOOK_NAMES, PACKAGE_MAIN, render


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment with no brv on PATH and nothing of a running brv or git."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("BRV_", "GIT_"))}
    return {**base, "PATH": no_brv_path(), **(extra or {})}


def _python(tmp: Path) -> tuple[Path, Path]:
    """A stand-in interpreter that records its arguments (one line a start), and its log."""
    marks = tmp / "started"
    python = tmp / "bin" / "python"
    python.parent.mkdir(exist_ok=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> {marks}\n')
    python.chmod(0o755)
    return python, marks


def _both(tmp: Path, name: str, cwd: Path, knowledge: str, python: Path,
          env: dict[str, str] | None = None, package: str = PACKAGE_MAIN
          ) -> dict[str, tuple[int, str, list[str]]]:
    """Runs the shim and the line for hook ``name``: (exit code, stderr, hook-impl starts).

    Both record ``python`` and ``package`` as ``brv hooks install`` does (the shim in its
    text, the line in git config). Every start of the stand-in Python is in ``STARTS``.
    """
    _, marks = _python(tmp)
    git("config", PYTHON_KEY, str(python), cwd=cwd)
    git("config", PACKAGE_KEY, package, cwd=cwd)
    shim = tmp / "hooks" / name
    shim.parent.mkdir(exist_ok=True)
    shim.write_bytes(render(name, str(python)).replace(
        f"PKG={shlex.quote(PACKAGE_MAIN)} ".encode(), f"PKG={shlex.quote(package)} ".encode()))
    shim.chmod(0o755)
    runs = {"shim": [str(shim), "x", "y", "z"],
            "line": ["sh", "-c", hook_line(name, knowledge), "brv", "x", "y", "z"]}
    out = {}
    for who, argv in runs.items():
        marks.unlink(missing_ok=True)
        proc = subprocess.run(argv, cwd=cwd, env=_env(env), capture_output=True, text=True,
                              timeout=60, check=False)
        started = marks.read_text().splitlines() if marks.exists() else []
        STARTS[who] = started
        impl = [line[line.index("hook-impl"):] for line in started if "hook-impl" in line]
        out[who] = (proc.returncode, proc.stderr, impl)
    return out


STARTS: dict[str, list[str]] = {}  # every start of the stand-in Python in _both's last run


@pytest.mark.parametrize("mode", ["in-project", "standalone"])
def test_with_brv_missing_both_refuse_staged_knowledge_in_the_same_words(
        tmp_path: Path, mode: str) -> None:
    if mode == "in-project":
        project = in_project(tmp_path)
        repo, knowledge, rel = project.root, ".brv/context-tree", ".brv/context-tree/a/b.md"
    else:
        project = standalone(tmp_path)
        repo, knowledge, rel = project.tree, ".", "a/b.md"
    gone = tmp_path / "gone" / "python"
    write(repo, rel, "---\ntitle: [x\n---\n")
    git("add", "-A", cwd=repo)
    got = _both(tmp_path, "pre-commit", repo, knowledge, gone)
    assert got["shim"] == got["line"], got
    code, err, _ = got["line"]
    assert code == 1
    assert err.startswith(f"brv: commit refused: it changes knowledge ({knowledge}) but the "
                          "brv git hook cannot find brv\n")
    assert f"recorded at install: {gone}; no brv on PATH" in err
    assert "git commit --no-verify" in err


def test_with_brv_missing_everything_else_goes_on_in_both(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    gone = tmp_path / "gone" / "python"
    write(root, "src/app.py", "print('code only')\n")
    git("add", "-A", cwd=root)
    got = _both(tmp_path, "pre-commit", root, ".brv/context-tree", gone)
    assert got["shim"] == got["line"] == (0, "", []), got
    write(root, ".brv/context-tree/a/b.md", "---\ntitle: [x\n---\n")
    git("add", "-A", cwd=root)  # knowledge staged: only pre-commit may refuse it
    for name in HOOK_NAMES:
        if name == "pre-commit":
            continue
        got = _both(tmp_path, name, root, ".brv/context-tree", gone)
        assert got["shim"][0] == got["line"][0] == 0, (name, got)
        # the shim warns (installed in this clone); the committed line stays silent
        assert "refused" not in got["shim"][1] + got["line"][1], (name, got)
        assert got["line"][1] == "", (name, got)


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_with_brv_there_both_start_hook_impl_alike_and_once(
        tmp_path: Path, name: str) -> None:
    root = in_project(tmp_path).root
    python, _ = _python(tmp_path)
    got = _both(tmp_path, name, root, ".brv/context-tree", python)
    assert got["shim"] == got["line"] == (0, "", [f"hook-impl {name} x y z"]), got
    # one start each: brv's hook itself, no 'python -c "import brv_vc"' before it (the line
    # finds brv by the shim's stat, vc/hook_missing.found)
    assert len(STARTS["shim"]) == len(STARTS["line"]) == 1, STARTS


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_the_running_commands_hooks_are_skipped_alike(tmp_path: Path, name: str) -> None:
    root = in_project(tmp_path).root
    python, _ = _python(tmp_path)
    for value in ("post-merge", "post-checkout,post-rewrite", f"{name}x", f"x{name}", "",
                  f"pre-commit,{name}", "commit-msg,pre-push", name):
        got = _both(tmp_path, name, root, ".brv/context-tree", python,
                    {"BRV_REFRESHING": value})
        assert got["shim"] == got["line"], (name, value, got)


def test_with_the_package_moved_both_ask_python_alike(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    python, _ = _python(tmp_path)
    moved = str(tmp_path / "moved" / "brv_vc" / "__main__.py")
    got = _both(tmp_path, "pre-commit", root, ".brv/context-tree", python, package=moved)
    assert got["shim"] == got["line"] == (0, "", ["hook-impl pre-commit x y z"]), got
    # each asks the recorded Python first, then starts brv's hook
    assert [len(STARTS["shim"]), len(STARTS["line"])] == [2, 2], STARTS
    assert STARTS["shim"][0] == STARTS["line"][0] == "-P -c import brv_vc", STARTS
