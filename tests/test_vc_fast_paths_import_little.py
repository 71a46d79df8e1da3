"""`brv vc` commands and hooks skip click and jsonschema; `vc status` imports no more than it needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from vc_helpers import Team, in_project_app, team  # noqa: F401

HEAVY = ("click", "yaml", "jsonschema", "dataclasses", "typing", "subprocess")
ROT = "auth/jwt/token_rotation.md"


def loaded(cwd: Path, *argv: str) -> tuple[int, list[str]]:
    """(exit code, which of HEAVY a real ``python -m brv_vc ARGV`` process imported)."""
    script = (f"import runpy, sys; sys.argv = ['brv', *{list(argv)!r}]\n"
              "code = 0\n"
              "try:\n    runpy.run_module('brv_vc', run_name='__main__')\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=env,
                          capture_output=True, check=False)
    code, _, names = done.stderr.strip().splitlines()[-1].partition(" ")
    return int(code), eval(names)  # a list of names, printed by the script above


def test_status_imports_none_of_them(team: Team) -> None:  # noqa: F811
    """git status is adopted as started (no subprocess); records are NamedTuples, no typing."""
    team.alice.edit(ROT, summary="changed")
    (team.alice.tree / "auth/jwt/new.md").write_text("---\ntitle: New\n---\nnew\n")
    team.alice.ok("vc", "status")  # the first one greps HEAD for committed markers (cached)
    for args in (("vc", "status"), ("vc", "status", "--json")):
        assert loaded(team.alice.root, *args) == (0, []), args


def test_in_project_status_imports_none_of_them(tmp_path: Path) -> None:
    """In-project, the repository's top is asked of git without subprocess too."""
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed")
    app.ok("vc", "status")
    assert loaded(app.tree / "auth", "vc", "status") == (0, [])


def test_add_commit_push_pull_and_the_hooks_skip_click_and_jsonschema(team: Team) -> None:  # noqa: F811
    team.alice.edit(ROT, summary="changed again")
    steps = [(team.alice.root, ("vc", "add")), (team.alice.tree, ("hook-impl", "pre-commit")),
             (team.alice.root, ("vc", "commit", "-m", "change")),
             (team.alice.root, ("vc", "push")), (team.bob.root, ("vc", "pull")),
             (team.bob.tree, ("hook-impl", "post-merge", "0"))]
    for cwd, args in steps:
        code, names = loaded(cwd, *args)
        assert code == 0, args
        assert not {"click", "jsonschema"} & set(names), (args, names)
    assert team.bob.text(ROT) == team.alice.text(ROT)  # the pull did pull


def test_a_pull_and_the_post_merge_hook_import_no_dataclasses(team: Team) -> None:  # noqa: F811
    """Their records are NamedTuples (brv_vc/record.py): dataclasses costs ~11 ms and ~1 ms a class."""
    team.alice.edit(ROT, summary="pulled by brv")
    team.alice.sync("one")
    code, names = loaded(team.bob.root, "vc", "pull")
    assert (code, "dataclasses" in names) == (0, False), names
    assert team.bob.text(ROT) == team.alice.text(ROT)
    team.alice.edit(ROT, summary="pulled by git")
    team.alice.sync("two")
    team.bob.git("-c", "core.hooksPath=/dev/null", "pull", "-q")
    code, names = loaded(team.bob.tree, "hook-impl", "post-merge", "0")
    assert (code, "dataclasses" in names) == (0, False), names
    assert "pulled by git" in (team.bob.tree / "auth/jwt/_index.md").read_text(encoding="utf-8")
