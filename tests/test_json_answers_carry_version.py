"""Every --json answer an agent may read carries "ok" and "version": 1."""

from __future__ import annotations

import json

import pytest

from brv_vc.tree.project import Project

COMMANDS = [
    ("tree",), ("search", "token"), ("query", "token rotation"),
    ("show", "auth/jwt/token_rotation.md"), ("validate",), ("validate", "--all"),
    ("brain",), ("manifest",), ("archive", "--candidates"), ("summarize",), ("index",),
    ("dream", "--force"), ("dream", "--log"), ("review", "pending"), ("export", "claude-md"),
    ("hydrate", "auth/jwt"), ("show", "auth/nothing.md"),
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a))
def test_json_answer_has_version(seeded: Project, brv, args: tuple[str, ...]) -> None:
    result = brv(*args, "--json", cwd=seeded.root)
    assert result.exit_code in (0, 1), result.stderr
    doc = json.loads(result.stdout)
    assert doc["version"] == 1, doc
    assert "ok" in doc
