"""``brv stale --since REV`` judges a file by the content its entry saw, as plain ``brv stale``
does, and counts only the commits after REV: a change undone after REV is no change."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_links_support import MODES, Repo

from brv_vc.services import code_links

FIRST = "def sign():\n    return 1\n" * 5


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write("src/auth/jwt.py", FIRST)
    repo.write("src/db/models.py", "class User:\n    pass\n")
    repo.commit("code")
    repo.entry("auth/jwt/tokens.md", ["src/auth/jwt.py"], title="Tokens")
    repo.entry("db/orm/models.md", ["src/db/models.py"], title="Models")
    repo.write("src/auth/jwt.py", "def sign():\n    return 2\n")
    repo.write("src/db/models.py", "class User:\n    name = 1\n")
    repo.commit("change both")
    repo.git("tag", "rev")
    return repo


def _stale(repo: Repo, since: str | None) -> dict[str, code_links.StaleEntry]:
    return {e.entry: e for e in code_links.stale(repo.project, since=since).entries}


def test_a_change_undone_after_rev_is_not_stale_since_rev(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", FIRST)  # back to what the entry saw
    repo.write("src/db/models.py", "class User:\n    name = 2\n")
    sha = repo.commit("undo jwt, change models again")
    assert set(_stale(repo, None)) == {"db/orm/models.md"}
    since = _stale(repo, "rev")
    assert set(since) == {"db/orm/models.md"}
    item = since["db/orm/models.md"]
    assert item.commits_since == 1  # only the commit after rev
    assert item.last_commit is not None
    assert item.last_commit.sha == sha


def test_nothing_after_rev_is_nothing_since_rev(repo: Repo) -> None:
    assert set(_stale(repo, None)) == {"auth/jwt/tokens.md", "db/orm/models.md"}
    assert _stale(repo, "rev") == {}
