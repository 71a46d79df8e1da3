"""An entry whose Files: list names a folder goes stale when a file under it changes, is
added, renamed or deleted (real git, both modes), and not before."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_links_support import MODES, Repo

from brv_vc.services import code_links


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write("src/auth/jwt.py", "def sign():\n    return 1\n" * 5)
    repo.write("src/auth/keys/rsa.py", "KEY = 1\n" * 5)
    repo.write("src/authz.py", "ALLOW = 1\n" * 5)  # beside the folder, not in it
    repo.write("src/db/models.py", "class User:\n    pass\n" * 5)
    repo.commit("code")
    repo.entry("auth/module/overview.md", ["src/auth/"], title="The auth module")
    repo.entry("db/orm/models.md", ["src/db/models.py"], title="Models")
    return repo


def _stale(repo: Repo) -> dict[str, code_links.StaleEntry]:
    return {e.entry: e for e in code_links.stale(repo.project).entries}


def test_a_folder_entry_is_fresh_until_a_file_under_it_changes(repo: Repo) -> None:
    assert _stale(repo) == {}
    repo.write("src/authz.py", "ALLOW = 2\n")
    repo.commit("a file beside the folder")
    assert _stale(repo) == {}
    repo.write("src/auth/keys/rsa.py", "KEY = 2\n")
    sha = repo.commit("rotate the key")
    item = _stale(repo)["auth/module/overview.md"]
    assert (item.reason, item.files, item.commits_since) == ("changed", ("src/auth",), 1)
    assert item.last_commit is not None
    assert item.last_commit.sha == sha


def test_a_file_added_to_the_folder_makes_it_stale(repo: Repo) -> None:
    repo.write("src/auth/oauth.py", "def login():\n    pass\n")
    repo.commit("oauth")
    assert _stale(repo)["auth/module/overview.md"].reason == "changed"


def test_a_renamed_folder_is_renamed_and_a_deleted_one_deleted(repo: Repo) -> None:
    repo.mv("src/auth", "src/login")
    repo.commit("auth -> login")
    item = _stale(repo)["auth/module/overview.md"]
    assert (item.reason, item.renamed_to) == ("renamed", {"src/auth": "src/login"})
    repo.git("rm", "-r", "-q", "src/login")
    repo.commit("drop login")
    assert _stale(repo)["auth/module/overview.md"].reason == "deleted"


def test_a_change_undone_in_the_folder_is_not_stale(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", "changed\n")
    repo.commit("change")
    repo.write("src/auth/jwt.py", "def sign():\n    return 1\n" * 5)
    repo.commit("undo")
    assert _stale(repo) == {}
