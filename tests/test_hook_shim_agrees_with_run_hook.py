"""The shim's fast exits and Python's rules, run on the same cases, give the same answer.

The rendered shim (hooks/hook.sh with each hook's row of ``FAST_EXITS``) ends some runs before
any Python starts; each such exit is the shell spelling of a rule of ``run_hook`` /
``hook_env``. Here both run on the same cases: whenever the shim ends early, Python's rule
skips too, and for the rules the shell copies whole (the running command's hooks, the
trailers note, a folder with no ``.brv`` above it) they agree both ways. The shim's "Python"
is a script that only records that it started.
"""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hooks_support import git, in_project, write

from brv_vc.services.vc import run_hook
from brv_vc.services.vc.hook_env import TRAILERS_SUFFIX, nothing_to_trail
from brv_vc.vc.hooks_install import FAST_EXITS, HOOK_NAMES, render

NOW = datetime(2025, 3, 18, 10, 0, tzinfo=UTC)


def _shim_starts_python(tmp: Path, name: str, cwd: Path, env: dict[str, str],
                        stdin: str = "") -> bool:
    """Runs the rendered shim for ``name``; True when it got as far as starting Python."""
    marks = tmp / "started"
    marks.unlink(missing_ok=True)
    python = tmp / "python"
    python.write_text(f'#!/bin/sh\necho "$*" >> {marks}\n')
    python.chmod(0o755)
    folder = tmp / "hooks"
    folder.mkdir(exist_ok=True)
    shim = folder / name
    shim.write_bytes(render(name, str(python)))
    shim.chmod(0o755)
    base = {k: v for k, v in os.environ.items() if not k.startswith(("BRV_", "GIT_"))}
    subprocess.run([str(shim), "x", "y", "z"], cwd=cwd, env={**base, **env}, input=stdin,
                   text=True, check=True, timeout=60)
    return marks.exists()


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_the_running_commands_hooks_are_skipped_by_both(tmp_path: Path, name: str) -> None:
    assert "refreshing" in FAST_EXITS[name]
    root = in_project(tmp_path).root
    for value in ("post-merge", "post-checkout,post-rewrite", f"{name}x", f"x{name}", "",
                  f"pre-commit,{name}", "commit-msg,pre-push", name):
        shell_skips = not _shim_starts_python(tmp_path, name, root, {"BRV_REFRESHING": value})
        run = run_hook(root, name, ("x", "y", "z"), NOW, refreshing=value)
        python_skips = run.skipped == "done by the running brv command"
        assert shell_skips == python_skips, (name, value)


def test_a_folder_with_no_brv_above_is_skipped_by_both(tmp_path: Path) -> None:
    (tmp_path / "p").mkdir()
    project = in_project(tmp_path / "p").root
    plain = tmp_path / "plain" / "deep"
    plain.mkdir(parents=True)
    linked = tmp_path / "linked"
    os.symlink(project, linked)
    dangling = tmp_path / "d" / "e"
    dangling.mkdir(parents=True)
    (tmp_path / "d" / ".brv").write_text("not a pointer\n")  # a .brv, but no project
    bare = tmp_path / "b" / "c"
    bare.mkdir(parents=True)
    (tmp_path / "b" / ".brv").mkdir()  # a .brv folder without a context tree
    cases = {plain: True, project: False, linked: False, project / "src": False,
             dangling: False, bare: False}
    (project / "src").mkdir(exist_ok=True)
    for folder, shell_should_skip in cases.items():
        for name in ("pre-commit", "post-checkout"):
            shell_skips = not _shim_starts_python(tmp_path, name, folder, {})
            run = run_hook(folder, name, (), NOW)
            python_skips = (run.skipped or "").startswith("not a brv project")
            assert shell_skips == shell_should_skip, (folder, name)
            # the shell ends early only where Python's rule skips too (never the other way)
            assert python_skips or not shell_skips, (folder, name)
    # the two the shell cannot judge without Python, and Python does skip
    assert run_hook(dangling, "post-merge", ("0",), NOW).skipped.startswith("not a brv project")
    assert run_hook(bare, "post-merge", ("0",), NOW).skipped == "not a brv project"


def test_the_trailers_note_is_read_alike(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    write(root, "a.txt", "a\n")
    git("add", "a.txt", cwd=root)
    index = root / ".git" / "index"
    # (note, its age against the index, the answer); an empty second line: Python skips, the
    # shell leaves it to Python (never the other way round)
    cases = [("pre-commit\n", 2, True), ("pre-commit\nauth/old.md\n", 2, False),
             ("pre-commit\n", -2, False), ("", 2, False), ("brv vc commit\n", 2, True),
             ("pre-commit\n\n", 2, None)]
    for text, age, expected in cases:
        answers = {}
        for who in ("shell", "python"):
            note = Path(str(index) + TRAILERS_SUFFIX)
            note.write_text(text)
            stamp = index.stat().st_mtime
            os.utime(note, (stamp + age, stamp + age))
            if who == "shell":
                answers[who] = not _shim_starts_python(tmp_path, "commit-msg", root,
                                                       {"GIT_INDEX_FILE": str(index)})
            else:
                answers[who] = nothing_to_trail(str(index))
            note.unlink(missing_ok=True)
        if expected is None:
            assert answers == {"shell": False, "python": True}, text
        else:
            assert answers == {"shell": expected, "python": expected}, (text, age)
