"""``brv about`` answers for paths the repository has or had, never for words with a slash
("and/or", "TCP/IP") that prose uses: those name no file of any commit (real git)."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_links_support import MODES, Repo
from conftest import run_brv

from brv_vc.services import code_links


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write("src/net/tcp.py", "PORT = 1\n")
    repo.write("src/old.py", "OLD = 1\n")
    repo.commit("code")
    repo.entry("net/tcp/stack.md", ["src/net/tcp.py"],
               text="Speaks TCP/IP; retries and/or gives up.", title="Stack")
    repo.entry("net/tcp/old.md", ["src/old.py"], title="Old")
    repo.git("rm", "-q", "src/old.py")
    repo.commit("drop old")
    return repo


def test_words_with_a_slash_name_nothing_and_a_deleted_file_still_answers(repo: Repo) -> None:
    found = {p.path: p for p in code_links.about(repo.project, ["and/or", "TCP/IP",
                                                                  "src/old.py"]).paths}
    for word in ("and/or", "TCP/IP"):
        assert (found[word].direct, found[word].folder) == ((), ())
        assert found[word].note == "never in the repository's history"
    assert [e.entry for e in found["src/old.py"].direct] == ["net/tcp/old.md"]
    assert found["src/old.py"].note == "not in the work tree (deleted or renamed)"
    answer = run_brv("about", "and/or", "--json", cwd=repo.root)
    assert answer.exit_code == 0, answer.stderr
    (path,) = answer.json()["paths"]
    assert (path["direct"], path["folder"]) == ([], [])
