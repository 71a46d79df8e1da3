"""brv stale on real git history, in both git modes: renames across folders, deletions,
files deleted then re-added, changes undone, merges, --since, and a bad revision."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from code_links_support import MODES, Repo
from conftest import snapshot

from brv_vc.services import code_links


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write("src/auth/jwt.py", "def sign():\n    return 1\n" * 5)
    repo.write("src/auth/refresh.py", "def refresh():\n    return 2\n" * 5)
    repo.write("src/db/models.py", "class User:\n    pass\n" * 5)
    repo.commit("code")
    repo.entry("auth/jwt/tokens.md", ["src/auth/jwt.py"], title="Tokens")
    repo.entry("auth/jwt/refresh.md", ["src/auth/refresh.py"], title="Refresh")
    repo.entry("db/orm/models.md", ["src/db/models.py"], title="Models")
    return repo


def _stale(repo: Repo, since: str | None = None) -> dict[str, code_links.StaleEntry]:
    return {e.entry: e for e in code_links.stale(repo.project, since=since).entries}


def test_nothing_is_stale_right_after_writing(repo: Repo) -> None:
    report = code_links.stale(repo.project)
    assert report.entries == ()
    assert report.linked_entries == 3
    assert report.mode == repo.mode


def test_a_change_after_the_entry_makes_it_stale_with_the_commit(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", "def sign():\n    return 3\n")
    sha = repo.commit("sign with RS256")
    found = _stale(repo)
    assert set(found) == {"auth/jwt/tokens.md"}
    item = found["auth/jwt/tokens.md"]
    assert (item.reason, item.files, item.commits_since) == ("changed", ("src/auth/jwt.py",), 1)
    assert item.last_commit is not None
    assert (item.last_commit.sha, item.last_commit.subject) == (sha, "sign with RS256")


def test_a_rename_across_folders_gives_the_new_path(repo: Repo) -> None:
    repo.mv("src/auth/refresh.py", "lib/tokens/refresh.py")
    repo.commit("move refresh")
    item = _stale(repo)["auth/jwt/refresh.md"]
    assert item.reason == "renamed"
    assert item.renamed_to == {"src/auth/refresh.py": "lib/tokens/refresh.py"}


def test_renames_are_followed_through_a_chain(repo: Repo) -> None:
    repo.mv("src/auth/refresh.py", "src/refresh.py")
    repo.commit("flatten")
    repo.mv("src/refresh.py", "pkg/session/refresh.py")
    repo.commit("package")
    item = _stale(repo)["auth/jwt/refresh.md"]
    assert item.renamed_to == {"src/auth/refresh.py": "pkg/session/refresh.py"}
    assert item.commits_since == 2


def test_a_deleted_file_makes_its_entry_stale_as_deleted(repo: Repo) -> None:
    repo.git("rm", "-q", "src/db/models.py")
    repo.commit("drop the ORM")
    item = _stale(repo)["db/orm/models.md"]
    assert (item.reason, item.files) == ("deleted", ("src/db/models.py",))


def test_deleted_then_re_added_is_judged_by_content(repo: Repo) -> None:
    original = (repo.root / "src/db/models.py").read_text()
    repo.git("rm", "-q", "src/db/models.py")
    repo.commit("drop")
    repo.write("src/db/models.py", original)
    repo.commit("bring it back as it was")
    assert "db/orm/models.md" not in _stale(repo)  # git diff between the two: no change
    repo.git("rm", "-q", "src/db/models.py")
    repo.commit("drop again")
    repo.write("src/db/models.py", "class Account:\n    pass\n")
    repo.commit("a new models.py")
    item = _stale(repo)["db/orm/models.md"]
    assert item.reason == "changed"
    assert item.commits_since == 4


def test_a_change_undone_is_not_stale(repo: Repo) -> None:
    before = (repo.root / "src/auth/jwt.py").read_text()
    repo.write("src/auth/jwt.py", "broken\n")
    repo.commit("oops")
    repo.write("src/auth/jwt.py", before)
    repo.commit("revert oops")
    assert _stale(repo) == {}


def test_updating_the_entry_after_the_change_makes_it_fresh(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", "def sign():\n    return 3\n")
    repo.commit("change")
    assert "auth/jwt/tokens.md" in _stale(repo)
    path = repo.project.tree / "auth/jwt/tokens.md"
    path.write_text(path.read_text() + "\nNow RS256.\n")
    assert "auth/jwt/tokens.md" not in _stale(repo)  # an uncommitted edit is the update
    repo.commit_knowledge("re-read the code")
    assert "auth/jwt/tokens.md" not in _stale(repo)


def test_a_change_merged_from_a_branch_counts(repo: Repo) -> None:
    repo.git("checkout", "-q", "-b", "feature")
    repo.write("src/db/models.py", "class User:\n    id = 1\n")
    repo.commit("models on a branch")
    repo.git("checkout", "-q", "main")
    repo.write("src/auth/jwt.py", "def sign():\n    return 9\n")
    repo.commit("jwt on main")
    repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature")
    found = _stale(repo)
    assert set(found) == {"auth/jwt/tokens.md", "db/orm/models.md"}
    assert found["db/orm/models.md"].last_commit.subject == "models on a branch"  # type: ignore[union-attr]


def test_since_limits_the_changes_that_count(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", "one\n")
    repo.commit("first change")
    tag = repo.git("rev-parse", "HEAD").strip()
    repo.write("src/db/models.py", "two\n")
    repo.commit("second change")
    assert set(_stale(repo)) == {"auth/jwt/tokens.md", "db/orm/models.md"}
    assert set(_stale(repo, since=tag)) == {"db/orm/models.md"}


def test_an_unknown_revision_is_refused_with_exit_1_and_nothing_changes(repo: Repo, brv) -> None:
    before = snapshot(repo.root)
    result = brv("stale", "--since", "no-such-tag", cwd=repo.root)
    assert result.exit_code == 1
    assert "unknown revision 'no-such-tag'" in result.stderr
    assert snapshot(repo.root) == before


def test_the_cli_lists_the_stale_entries_and_json_matches_the_schema(repo: Repo, brv) -> None:
    import json

    import jsonschema

    repo.mv("src/auth/refresh.py", "lib/refresh.py")
    repo.commit("move")
    text = brv("stale", cwd=repo.root)
    assert text.exit_code == 0, text.stderr
    assert "auth/jwt/refresh.md  renamed" in text.stdout
    assert "src/auth/refresh.py -> lib/refresh.py" in text.stdout
    answer = brv("stale", "--json", cwd=repo.root).json()
    schema = json.loads((Path(__file__).parent.parent / "schemas/answer-stale.schema.json")
                        .read_text())
    jsonschema.validate(answer, schema)
    assert answer["entries"][0]["renamed_to"] == {"src/auth/refresh.py": "lib/refresh.py"}


def test_one_history_walk_for_the_whole_tree(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    from brv_vc.vc import git

    for i in range(20):
        repo.write(f"src/mod{i}.py", f"x = {i}\n")
    repo.commit("modules")
    for i in range(20):
        (repo.project.tree / f"mods/all/m{i}.md").parent.mkdir(parents=True, exist_ok=True)
        (repo.project.tree / f"mods/all/m{i}.md").write_text(
            f"---\ntitle: M{i}\n---\n**Files:**\n- src/mod{i}.py\n")
    repo.commit_knowledge("entries")
    for i in range(20):
        repo.write(f"src/mod{i}.py", f"x = {i + 1}\n")
    repo.commit("change all")
    calls: list[list[str]] = []
    real = git.run

    def counting(args, cwd, **kw):  # type: ignore[no-untyped-def]
        calls.append(list(args))
        return real(args, cwd, **kw)

    monkeypatch.setattr(git, "run", counting)
    walks = []
    real_history = git.history
    monkeypatch.setattr(git, "history", lambda repo_, revs: walks.append(revs) or real_history(repo_, revs))
    assert len(_stale(repo)) == 20
    assert len(walks) == (1 if repo.mode == "in-project" else 2)  # + the knowledge repo's
    assert not [c for c in calls if c and c[0] == "log"]
    # the next answer reads only the commits after the HEAD the cached walk knew
    repo.write("src/mod0.py", "x = 100\n")
    head = repo.commit("one more")
    walks.clear()
    assert len(_stale(repo)) == 20
    assert walks[0][0] == head
    assert walks[0][1].startswith("^")


def test_a_rewritten_history_is_read_again(repo: Repo) -> None:
    repo.write("src/auth/jwt.py", "changed\n")
    repo.commit("change jwt")
    assert set(_stale(repo)) == {"auth/jwt/tokens.md"}  # the walk is now cached
    repo.git("reset", "-q", "--hard", "HEAD~1")
    repo.write("src/db/models.py", "changed\n")
    repo.commit("change models instead")
    assert set(_stale(repo)) == {"db/orm/models.md"}


def test_a_branch_dated_before_the_entry_but_merged_after_it_counts(repo: Repo) -> None:
    repo.git("checkout", "-q", "-b", "old-branch")
    repo.write("src/db/models.py", "class User:\n    email = ''\n")
    repo.commit("models, written before the entry was updated")
    repo.git("checkout", "-q", "main")
    path = repo.project.tree / "db/orm/models.md"
    path.write_text(path.read_text() + "\nReviewed.\n")
    repo.commit_knowledge("entry updated: main did not have the branch yet")
    repo.git("merge", "-q", "--no-ff", "-m", "merge the old branch", "old-branch")
    assert set(_stale(repo)) == {"db/orm/models.md"}


def test_stale_entries_answers_from_the_last_report_until_head_moves(repo: Repo) -> None:
    assert code_links.stale_entries(repo.project) == frozenset()
    repo.write("src/auth/jwt.py", "changed\n")
    repo.commit("change jwt")  # HEAD moved: the remembered answer no longer holds
    assert code_links.stale_entries(repo.project) == {"auth/jwt/tokens.md"}
    kept = repo.project.state / "code-links.json"
    data = json.loads(kept.read_text(encoding="utf-8"))
    kept.write_text(json.dumps({**data, "stale": ["kept/answer.md"]}), encoding="utf-8")
    assert code_links.stale_entries(repo.project) == {"kept/answer.md"}  # same HEAD and tree
    repo.write("src/db/models.py", "changed\n")
    repo.commit("change models")
    assert code_links.stale_entries(repo.project) == {"auth/jwt/tokens.md", "db/orm/models.md"}
