"""Usage errors: a typo gets "did you mean", and with --json every failure (click's own usage
errors included) is the same ``{"ok": false, "error": {...}}`` document on stdout."""

from __future__ import annotations

import pytest
from conftest import brv_process

from brv_vc.tree.project import Project


def test_a_mistyped_command_gets_a_suggestion(project: Project, brv) -> None:
    result = brv("serach", "token", cwd=project.root)
    assert result.exit_code == 2
    assert "Error: No such command 'serach'. Did you mean 'search'?" in result.stderr
    assert result.stdout == ""
    far = brv("zzzz", cwd=project.root)
    assert far.exit_code == 2
    assert "Error: No such command 'zzzz'." in far.stderr
    assert "Did you mean" not in far.stderr


@pytest.mark.parametrize(("args", "message", "hint"), [
    (("search", "--json"), "Missing argument 'QUERY'.", "see 'brv search --help'"),
    (("search", "x", "--bogus", "--json"), "No such option '--bogus'.", "see 'brv search --help'"),
    (("vc", "commit", "--json"), "Missing option '-m' / '--message'.",
     "see 'brv vc commit --help'"),
    (("serach", "x", "--json"), "No such command 'serach'. Did you mean 'search'?",
     "see 'brv --help'"),
    (("relations", "--json"), "brv relations needs an entry PATH or --dangling",
     "brv relations auth/jwt/token_rotation.md, or brv relations --dangling"),
])
def test_json_usage_errors_are_documents(project: Project, brv, args: tuple[str, ...],
                                          message: str, hint: str) -> None:
    result = brv(*args, cwd=project.root)
    assert result.exit_code == 2
    assert result.json() == {"ok": False, "version": 1, "error": {"code": "usage", "message": message,
                                                    "hint": hint}}
    assert result.stderr == ""


def test_json_usage_errors_from_a_real_process(project: Project) -> None:
    result = brv_process("search", "--json", cwd=project.root)  # the fast path hands over
    assert result.exit_code == 2
    assert result.json() == {"ok": False, "version": 1, "error": {
        "code": "usage", "message": "Missing argument 'QUERY'.",
        "hint": "see 'brv search --help'"}}
    plain = brv_process("search", cwd=project.root)
    assert plain.exit_code == 2
    assert plain.stdout == ""
    assert "Error: Missing argument 'QUERY'." in plain.stderr
