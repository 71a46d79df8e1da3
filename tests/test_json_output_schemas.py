"""Real ``--json`` answers of every agent-facing command validate against the published
schemas (schemas/answer-*.schema.json), and every answer carries ``"version": 1``."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_brv
from jsonschema import Draft202012Validator
from vc_helpers import git

from brv_vc.resources import load_schema


def _valid(name: str, answer: object) -> None:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in Draft202012Validator(schema).iter_errors(answer)]
    assert errors == [], f"{name}: {errors}"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    for title, text in (("Token rotation", "Refresh tokens are single use."),
                        ("Signing keys", "Keys rotate every 90 days.")):
        done = run_brv("curate", "add", "auth/jwt", "--title", title, "--content", text,
                       "--summary", title, "--related", "auth/jwt/signing_keys.md", cwd=root)
        assert done.exit_code == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "knowledge")
    return root


def _ok(root: Path, *args: str) -> object:
    result = run_brv(*args, "--json", cwd=root)
    assert result.exit_code == 0, result.stderr + result.stdout
    answer = result.json()
    assert isinstance(answer, dict)
    assert answer["version"] == 1
    return answer


def test_read_commands_match_their_schemas(repo: Path) -> None:
    _valid("answer-search", _ok(repo, "search", "refresh tokens"))
    _valid("answer-search", _ok(repo, "search", "zzzz qqqq"))
    _valid("answer-query", _ok(repo, "query", "how do refresh tokens work"))
    _valid("answer-show", _ok(repo, "show", "auth/jwt/token_rotation.md"))
    _valid("answer-show", _ok(repo, "show", "auth/jwt/context.md"))
    _valid("answer-tree", _ok(repo, "tree"))


def test_vc_commands_match_their_schemas(repo: Path) -> None:
    _valid("answer-vc-status", _ok(repo, "vc", "status"))
    _valid("answer-vc-log", _ok(repo, "vc", "log", "-n", "3"))
    git(repo, "checkout", "-q", "-b", "feature")
    run_brv("curate", "update", "auth/jwt/token_rotation.md", "--summary", "Weekly",
            "--tags", "auth", cwd=repo)
    run_brv("curate", "delete", "auth/jwt/signing_keys.md", "--reason", "moved", cwd=repo)
    run_brv("curate", "add", "auth/oauth", "--title", "Scopes", "--content", "## Facts\n- read",
            cwd=repo)
    _valid("answer-vc-status", _ok(repo, "vc", "status"))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "feature")
    diff = _ok(repo, "vc", "diff", "main..feature")
    assert {e["status"] for e in diff["entries"]} >= {"added", "removed", "modified"}
    _valid("answer-vc-diff", diff)
    _valid("answer-vc-diff", _ok(repo, "vc", "diff", "main..main"))


def test_curate_answers_match_their_schema(repo: Path) -> None:
    _valid("answer-curate", _ok(repo, "curate", "add", "ops/ci", "--title", "Pipeline",
                                "--content", "Runs on push."))
    _valid("answer-curate", _ok(repo, "curate", "update", "ops/ci/pipeline.md",
                                "--summary", "CI", "--dry-run"))
    failed = run_brv("curate", "add", "ops/ci", "--title", "Pipeline", "--content", "x",
                     "--json", cwd=repo)
    assert failed.exit_code == 1
    _valid("answer-curate", failed.json())
    _valid("answer-error", failed.json())


def test_errors_match_the_error_schema(repo: Path) -> None:
    for args in (("show", "auth/jwt/nothing.md"), ("vc", "diff", "nope..HEAD"),
                 ("search", "--no-such-option", "x")):
        result = run_brv(*args, "--json", cwd=repo)
        assert result.exit_code in (1, 2)
        _valid("answer-error", result.json())
