"""A committed .brv/config.yaml or .brv that is a symlink out of the project is refused by
every command, naming the file and the fix; no message ever quotes the target's content.

Real git: the links arrive by a clone of a repository that commits them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import Result, brv_process, run_brv, snapshot
from vc_helpers import git, in_project_app

TOKEN_LINE = "https://alice:ghp_tokentokentokentokentoken0123@github.com"
COMMANDS = (("search", "token"), ("tree",), ("vc", "diff"), ("vc", "status"),
            ("curate", "add", "a/b", "--title", "T", "--content", "x"))


def _cloned_with_link(tmp_path: Path, rel: str, target: str) -> Path:
    """A clone of an in-project app whose commit made ``rel`` a symlink to ``target``."""
    app = in_project_app(tmp_path / "author", "auth/jwt/token_rotation.md")
    link = app.root / rel
    if link.is_dir():
        import shutil

        shutil.rmtree(link)
    elif link.exists():
        link.unlink()
    os.symlink(target, link)
    git(app.root, "add", "-A", "-f", "--", rel)
    git(app.root, "commit", "-q", "--no-verify", "-m", "settings")  # no brv hooks there
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(app.root), str(clone))
    assert (clone / rel).is_symlink()
    return clone


def _refused(root: Path, secret: str, file: str) -> list[Result]:
    before = snapshot(root)
    results = []
    for args in COMMANDS:
        for result in (run_brv(*args, cwd=root), run_brv(*args, "--json", cwd=root)
                       if args[0] in ("search", "vc") else None):
            if result is None:
                continue
            out = result.stdout + result.stderr
            assert result.exit_code == 1, (args, out)
            assert file in out, (args, out)
            assert secret not in out, (args, out)
            assert "internal error" not in out
            results.append(result)
    assert snapshot(root) == before
    return results


def test_a_config_linked_to_a_token_file_is_refused_without_quoting_it(
        tmp_path: Path) -> None:
    secret = tmp_path / "credentials"
    secret.write_text(TOKEN_LINE + "\n")
    clone = _cloned_with_link(tmp_path, ".brv/config.yaml", str(secret))
    results = _refused(clone, "ghp_tokentoken", ".brv/config.yaml")
    assert "is a symlink that leads out of the project" in results[0].stderr
    assert "hint: replace it with a regular file" in results[0].stderr
    fast = brv_process("search", "token", cwd=clone)  # the click-free path too
    assert fast.exit_code == 1
    assert "ghp_tokentoken" not in fast.stdout + fast.stderr


def test_a_config_linked_to_etc_passwd_is_refused_without_quoting_it(tmp_path: Path) -> None:
    passwd = Path("/etc/passwd")
    if not passwd.is_file():
        pytest.skip("no /etc/passwd here")
    first = passwd.read_text().splitlines()[0]
    clone = _cloned_with_link(tmp_path, ".brv/config.yaml", str(passwd))
    _refused(clone, first[:20], ".brv/config.yaml")


def test_a_brv_linked_to_another_project_is_refused(tmp_path: Path) -> None:
    other = tmp_path / "victim"
    other.mkdir()
    assert run_brv("init", cwd=other).exit_code == 0
    before = snapshot(other)
    clone = _cloned_with_link(tmp_path, ".brv", str(other / ".brv"))
    for args in COMMANDS:
        result = run_brv(*args, cwd=clone)
        assert result.exit_code == 1, (args, result.stdout + result.stderr)
        assert "is a symlink to" in result.stderr
        assert "allow_projects" in result.stderr  # how to allow it, if trusted
    assert snapshot(other) == before


@pytest.mark.parametrize("part", [".brv/state", ".brv/context-tree"])
def test_a_state_or_tree_linked_out_of_the_project_is_refused(tmp_path: Path,
                                                             part: str) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.md").write_text("not brv's\n")
    before = snapshot(elsewhere)
    clone = _cloned_with_link(tmp_path, part, str(elsewhere))
    for args in COMMANDS:
        result = run_brv(*args, cwd=clone)
        assert result.exit_code == 1, (args, result.stdout + result.stderr)
        assert f"'{part}' is a symlink that leads out of the project" in result.stderr
    assert snapshot(elsewhere) == before
    assert sorted(p.name for p in elsewhere.iterdir()) == ["keep.md"]


def test_a_config_linked_inside_the_project_is_read(tmp_path: Path) -> None:
    app = in_project_app(tmp_path / "author", "auth/jwt/token_rotation.md")
    shared = app.root / "settings" / "brv.yaml"
    shared.parent.mkdir()
    shared.write_text("version: 1\nsearch:\n  limit: 3\n")
    (app.root / ".brv/config.yaml").unlink()
    os.symlink("../settings/brv.yaml", app.root / ".brv/config.yaml")
    assert app.brv("search", "token").exit_code == 0
