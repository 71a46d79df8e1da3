"""`brv vc push` checks what the push brings, and costs little more than `git push` (issue 24)."""

from __future__ import annotations

from test_vc_fast_paths_import_little import loaded
from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"


def test_push_imports_no_dataclasses_nor_typing(team: Team) -> None:  # noqa: F811
    """Its records are NamedTuples and it never imports the commit's module."""
    team.alice.edit(ROT, summary="pushed")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "change")
    code, names = loaded(team.alice.root, "vc", "push")
    assert code == 0
    assert not {"click", "jsonschema", "yaml", "dataclasses", "typing"} & set(names), names
    assert team.alice.git("rev-parse", "HEAD") == team.alice.git("rev-parse", "origin/main")
