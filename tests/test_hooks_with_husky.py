"""brv beside husky v9 (core.hooksPath = .husky/_): never rewrite husky's files, one line in the team's.

Without npm, ``_husky_install`` does what ``npx husky`` (husky 9) does to a repository, and
``HUSKY_H`` behaves as husky 9's installed ``.husky/_/h``: it finds the team's hook by the
name it was run under (``.husky/<basename $0>``), exits 0 when there is none or when
``HUSKY=0``, puts ``node_modules/.bin`` first on PATH and runs the hook with ``sh -e``,
exiting with its status. With npm, one test installs the real husky from the registry.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from conftest import snapshot
from hooks_support import entry_bytes, git, git_env, head, in_project, no_brv_path, write
from manager_support import BROKEN, ok, run

from brv_vc.vc.hooks_install import HOOK_NAMES

HUSKY_H = """\
#!/usr/bin/env sh
# behaves as husky 9's .husky/_/h (see the module docstring)
name=$(basename "$0")
script=$(dirname "$(dirname "$0")")/$name
[ -f "$script" ] || exit 0
[ "${HUSKY-}" = "0" ] && exit 0
export PATH="node_modules/.bin:$PATH"
sh -e "$script" "$@"
code=$?
[ $code != 0 ] && echo "husky - $name script failed (code $code)"
exit $code
"""
STUB = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"'
TEAM = 'echo team-ran >> "$(git rev-parse --git-dir)/team.log"\n'


def _husky_install(root: Path) -> None:
    """What ``npx husky`` (v9) does: .husky/_ with h and one stub per hook, and hooksPath."""
    folder = root / ".husky" / "_"
    folder.mkdir(parents=True, exist_ok=True)
    write(folder, ".gitignore", "*")
    write(folder, "h", HUSKY_H).chmod(0o755)
    for name in (*HOOK_NAMES, "pre-merge-commit", "prepare-commit-msg", "post-commit"):
        write(folder, name, STUB).chmod(0o755)
    git("config", "core.hooksPath", ".husky/_", cwd=root)


def _env(with_brv: bool = True) -> dict[str, str]:
    """git's environment; ``brv`` on PATH (this interpreter's scripts) or not at all."""
    bindir = str(Path(sys.executable).parent)
    return git_env(PATH=os.pathsep.join([bindir, no_brv_path()]) if with_brv else no_brv_path())


def _status(root: Path) -> dict[str, object]:
    return json.loads(ok(run(sys.executable, "-m", "brv_vc", "hooks", "status", "--json",
                             cwd=root)).stdout)


def _team_repo(tmp: Path) -> Path:
    root = in_project(tmp).root
    _husky_install(root)
    write(root, ".husky/pre-commit", TEAM)
    return root


def _team_runs(root: Path) -> int:
    log = root / ".git/team.log"
    return len(log.read_text().splitlines()) if log.exists() else 0


def _commit(root: Path, msg: str, with_brv: bool = True):  # type: ignore[no-untyped-def]
    return run("git", "commit", "-q", "-m", msg, cwd=root, env=_env(with_brv))


def test_husky_then_brv_adds_one_line_and_both_hooks_run(tmp_path: Path) -> None:
    root = _team_repo(tmp_path)
    husky_files = snapshot(root / ".husky" / "_")
    result = ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    assert "hook manager: husky" in result.stdout
    assert snapshot(root / ".husky" / "_") == husky_files  # husky's own files untouched
    text = (root / ".husky/pre-commit").read_text()
    assert text.startswith(TEAM)
    assert text.count("brv hook-impl pre-commit") == 1
    assert all("brv hook-impl" in (root / ".husky" / n).read_text() for n in HOOK_NAMES)
    again = ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    assert (root / ".husky/pre-commit").read_text() == text, again.stdout

    status = _status(root)
    assert status["manager"] == "husky"
    assert all(h["runner"] == "husky" and h["brv_runs"] for h in status["hooks"])

    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    refused = _commit(root, "broken")
    assert refused.returncode == 1  # brv's refusal still blocks the commit
    assert "auth/jwt/broken.md: malformed YAML" in refused.stderr
    assert head(root) == before
    assert _team_runs(root) == 1

    write(root, ".brv/context-tree/auth/jwt/broken.md", entry_bytes("Fixed"))
    git("add", "-A", cwd=root)
    ok(_commit(root, "fixed"))
    assert _team_runs(root) == 2

    _husky_install(root)  # the next `npm install` rewrites .husky/_: brv's line survives
    write(root, "src/c.py", "c = 1\n")
    git("add", "src/c.py", cwd=root)
    ok(_commit(root, "after npm install"))
    assert _team_runs(root) == 3
    assert _status(root)["hooks"][0]["brv_runs"] is True


def test_without_brv_on_path_the_line_still_reaches_the_brv_that_installed_it(
        tmp_path: Path) -> None:
    root = _team_repo(tmp_path)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    refused = _commit(root, "no brv on PATH", with_brv=False)
    assert refused.returncode == 1
    assert "auth/jwt/broken.md: malformed YAML" in refused.stderr
    assert _team_runs(root) == 1


def test_with_brv_gone_a_knowledge_commit_fails_loudly_and_code_passes(tmp_path: Path) -> None:
    """A teammate's machine without brv: the committed line must not pass knowledge unchecked."""
    root = _team_repo(tmp_path)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    git("config", "brv.python", str(tmp_path / "gone/bin/python"), cwd=root)
    write(root, "src/code.py", "x = 1\n")
    git("add", "src/code.py", cwd=root)
    done = ok(_commit(root, "code only", with_brv=False))
    assert done.stderr == ""
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    before = head(root)
    refused = _commit(root, "knowledge", with_brv=False)
    assert refused.returncode == 1
    assert ("brv: commit refused: it changes knowledge (.brv/context-tree) but the brv git hook "
            "cannot find brv") in refused.stderr
    assert "run: brv hooks install" in refused.stderr
    assert head(root) == before


def test_brv_then_husky_status_tells_the_truth_and_install_joins(tmp_path: Path) -> None:
    root = in_project(tmp_path).root
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    _husky_install(root)  # git now runs .husky/_ only: brv's shims in .git/hooks are dead
    status = _status(root)
    assert status["manager"] == "husky"
    assert not any(h["brv_runs"] for h in status["hooks"])
    text = ok(run(sys.executable, "-m", "brv_vc", "hooks", "status", cwd=root)).stdout
    assert "pre-commit     husky's script runs; brv's part does NOT run" in text
    assert "run 'brv hooks install' to add them" in text

    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    assert all(h["brv_runs"] for h in _status(root)["hooks"])


def test_an_older_brv_chaining_inside_husky_is_repaired(tmp_path: Path) -> None:
    """brv before 0.2 renamed .husky/_/pre-commit to .legacy: the team's hook never ran."""
    root = _team_repo(tmp_path)
    folder = root / ".husky/_"
    os.replace(folder / "pre-commit", folder / "pre-commit.legacy")
    write(folder, "pre-commit", "#!/bin/sh\n# brv-vc-hook-id: 7c3e91d0a5f4\nPY=''\n").chmod(0o755)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    assert (folder / "pre-commit").read_text() == STUB
    assert not (folder / "pre-commit.legacy").exists()
    # the same, after `npm install` rewrote .husky/_ and left the stale .legacy copy behind
    write(folder, "pre-commit.legacy", STUB).chmod(0o755)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))  # no "both exist"
    assert not (folder / "pre-commit.legacy").exists()
    write(root, "src/d.py", "d = 1\n")
    git("add", "src/d.py", cwd=root)
    ok(_commit(root, "team hook back"))
    assert _team_runs(root) == 1


def test_uninstall_takes_only_brvs_line_out(tmp_path: Path) -> None:
    root = _team_repo(tmp_path)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "uninstall", cwd=root))
    assert (root / ".husky/pre-commit").read_text() == TEAM
    assert not (root / ".husky/post-merge").exists()  # brv had created it: gone again
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    ok(_commit(root, "brv is out"))
    assert _team_runs(root) == 1
    assert not any(h["brv_runs"] for h in _status(root)["hooks"])


@pytest.mark.slow
def test_real_husky_from_npm(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed: the husky-equivalent tests above cover husky")
    root = _team_repo(tmp_path)
    shutil.rmtree(root / ".husky/_")
    git("config", "--unset", "core.hooksPath", cwd=root)
    write(root, "package.json", '{"name": "app", "private": true, "scripts": {}}\n')
    installed = run(npm, "install", "--no-audit", "--no-fund", "husky@9", cwd=root)
    if installed.returncode != 0:
        pytest.skip(f"npm cannot install husky here (no registry?): {installed.stderr[-300:]}")
    ok(run("npx", "husky", cwd=root))
    assert git("config", "core.hooksPath", cwd=root).stdout.strip() == ".husky/_"
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    refused = _commit(root, "broken")
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert _team_runs(root) == 1


def test_husky_before_v9_gets_the_line_in_its_executable_hook_files(tmp_path: Path) -> None:
    """husky 5 to 8: core.hooksPath = .husky, git runs .husky/<hook> itself (husky.sh in _/)."""
    root = in_project(tmp_path).root
    write(root / ".husky/_", "husky.sh", "# husky 5-8 helper\n")
    write(root / ".husky", "pre-commit", "#!/usr/bin/env sh\n" + TEAM).chmod(0o755)
    git("config", "core.hooksPath", ".husky", cwd=root)
    ok(run(sys.executable, "-m", "brv_vc", "hooks", "install", cwd=root))
    assert os.access(root / ".husky/post-merge", os.X_OK)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", "-A", cwd=root)
    assert _commit(root, "broken").returncode == 1
    assert _team_runs(root) == 1
