"""``brv vc diff --format json`` and ``--json`` are one switch: the same answer, the same JSON
error document; ``--json`` with another format is a usage error."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_brv
from vc_helpers import git


def _repo(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    done = run_brv("curate", "add", "auth/jwt", "--title", "Rotation", "--content", "Single use.",
                   cwd=root)
    assert done.exit_code == 0, done.stderr
    git(root, "add", "-A")
    git(root, "commit", "-qm", "one")
    return root


def test_format_json_and_json_give_the_same_answer(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    run_brv("curate", "update", "auth/jwt/rotation.md", "--summary", "Weekly", cwd=root)
    a = run_brv("vc", "diff", "--format", "json", cwd=root)
    b = run_brv("vc", "diff", "--json", cwd=root)
    assert a.exit_code == b.exit_code == 0
    assert json.loads(a.stdout) == json.loads(b.stdout)


def test_format_json_reports_errors_as_json_like_json(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    for args in (["--format", "json"], ["--format=json"], ["--json"]):
        failed = run_brv("vc", "diff", "no-such-ref..HEAD", *args, cwd=root)
        assert failed.exit_code == 1
        answer = json.loads(failed.stdout)
        assert answer["ok"] is False
        assert answer["error"]["message"]


def test_json_with_another_format_is_refused(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    refused = run_brv("vc", "diff", "--json", "--format", "markdown", cwd=root)
    assert refused.exit_code == 2
    assert "two formats" in refused.stdout + refused.stderr
