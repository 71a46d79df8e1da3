"""A real network remote: ``git daemon`` on 127.0.0.1, push and pull over git://."""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from vc_helpers import git, start_team

ROT = "auth/jwt/token_rotation.md"

git_daemon = vc_helpers.git_daemon


def test_team_over_a_git_daemon(tmp_path: Path, git_daemon: tuple[str, Path]) -> None:
    url, bare = git_daemon
    team = start_team(tmp_path, url=url, remote=bare)
    assert team.bob.read(ROT).title == "Token rotation"
    team.bob.write("auth/jwt/signing_keys.md", "Signing keys", facts=["rotate monthly"])
    team.bob.sync("bob: signing keys")
    fetched = team.alice.ok("vc", "fetch", "--json").json()
    assert fetched["behind"] == 1
    assert fetched["url"] == url
    team.alice.ok("vc", "pull")
    assert team.alice.read("auth/jwt/signing_keys.md").facts()[0].statement == "rotate monthly"
    assert git(bare, "log", "--format=%s", "main").splitlines()[0] == "bob: signing keys"
