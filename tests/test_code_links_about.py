"""brv about PATH...: direct links first, then entries about the folders, each with its
freshness from git; JSON against its schema; paths that do not exist or lie outside."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from code_links_support import MODES, Repo

from brv_vc.services import code_links

SCHEMA = json.loads((Path(__file__).parent.parent / "schemas/answer-about.schema.json").read_text())


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write("src/auth/jwt.py", "a\n")
    repo.write("src/auth/keys.py", "k\n")
    repo.commit("code")
    repo.entry("auth/jwt/tokens.md", ["src/auth/jwt.py"], title="Tokens")
    repo.entry("auth/jwt/module.md", ["src/auth/"], title="The auth module")
    repo.entry("auth/jwt/mention.md", [], text="Keys are loaded by `src/auth/keys.py`.",
               title="Key loading")
    return repo


def test_direct_links_come_first_then_the_folder(repo: Repo) -> None:
    answer = code_links.about(repo.project, ["src/auth/jwt.py"])
    (path,) = answer.paths
    assert [(e.entry, e.how) for e in path.direct] == [("auth/jwt/tokens.md", "files")]
    assert [(e.entry, e.how, e.linked) for e in path.folder] == [
        ("auth/jwt/module.md", "folder", "src/auth")]
    assert path.exists
    assert path.note is None


def test_freshness_counts_the_commits_since_the_entry(repo: Repo, brv) -> None:
    repo.write("src/auth/jwt.py", "b\n")
    repo.commit("first")
    repo.write("src/auth/jwt.py", "c\n")
    last = repo.commit("second: RS256")
    (item,) = code_links.about(repo.project, ["src/auth/jwt.py"]).paths[0].direct
    assert item.freshness.changes_since == 2
    assert item.freshness.last is not None
    assert item.freshness.last.sha == last
    assert item.freshness.written is not None
    text = brv("about", "src/auth/jwt.py", cwd=repo.root)
    assert text.exit_code == 0, text.stderr
    lines = text.stdout.splitlines()
    assert lines[1].startswith("  auth/jwt/tokens.md")
    assert f"the file changed in 2 commits since (last: {last[:9]}" in lines[2]
    assert "second: RS256" in lines[2]


def test_a_path_named_in_the_text_links(repo: Repo) -> None:
    (path,) = code_links.about(repo.project, ["src/auth/keys.py"]).paths
    assert [(e.entry, e.how) for e in path.direct] == [("auth/jwt/mention.md", "text")]


def test_a_folder_lists_the_entries_of_its_files(repo: Repo) -> None:
    (path,) = code_links.about(repo.project, ["src/auth"]).paths
    assert {e.entry for e in path.direct} == {"auth/jwt/tokens.md", "auth/jwt/module.md",
                                              "auth/jwt/mention.md"}


def test_paths_are_read_from_the_current_folder_and_json_follows_the_schema(
        repo: Repo, brv) -> None:
    answer = brv("about", "jwt.py", "gone.py", "--json", cwd=repo.root / "src/auth")
    assert answer.exit_code == 0, answer.stderr
    body = answer.json()
    jsonschema.validate(body, SCHEMA)
    assert [p["path"] for p in body["paths"]] == ["src/auth/jwt.py", "src/auth/gone.py"]
    gone = body["paths"][1]
    assert gone["exists"] is False
    assert gone["direct"] == []
    assert gone["note"] == "never in the repository's history"  # gone.py never existed


def test_a_path_outside_the_repository_is_answered_with_a_note(repo: Repo, brv) -> None:
    answer = brv("about", "../elsewhere.py", cwd=repo.root)
    assert answer.exit_code == 0
    assert "../elsewhere.py  (outside the repository)" in answer.stdout


def test_linked_entries_reads_the_index_only(repo: Repo) -> None:
    # the folder's entry too: its Files: list names src/auth, around both files
    found = code_links.linked_entries(repo.project, ["src/auth/jwt.py", "src/auth/keys.py",
                                                     "nothing.py"])
    assert found == {"src/auth/jwt.py": ("auth/jwt/module.md", "auth/jwt/tokens.md"),
                     "src/auth/keys.py": ("auth/jwt/mention.md", "auth/jwt/module.md"),
                     "nothing.py": ()}


def test_no_git_repository_is_a_clear_error(project, brv) -> None:  # type: ignore[no-untyped-def]
    result = brv("about", "x.py", cwd=project.root)
    assert result.exit_code == 1
    assert "no git repository holds the project" in result.stderr


def test_a_renamed_file_finds_the_entries_naming_its_former_path(repo: Repo) -> None:
    repo.mv("src/auth/jwt.py", "lib/tokens/jwt.py")
    repo.commit("move jwt")
    repo.write("lib/tokens/jwt.py", "changed after the move\n")
    repo.commit("change it")
    code_links.stale(repo.project)  # walks the history once and keeps it
    (path,) = code_links.about(repo.project, ["lib/tokens/jwt.py"]).paths
    (item,) = path.direct
    assert (item.entry, item.linked) == ("auth/jwt/tokens.md", "src/auth/jwt.py")
    assert item.freshness.changes_since == 2


def test_an_entry_being_edited_is_fresh_whatever_its_name(repo: Repo) -> None:
    """git quotes a name with accents unless -z: the edit must still be seen as the update."""
    repo.entry("auth/jwt/clés_de_signature.md", ["src/auth/keys.py"], title="Clés")
    repo.write("src/auth/keys.py", "k2\n")
    repo.commit("keys change after the entry")
    name = "auth/jwt/clés_de_signature.md"

    def item() -> code_links.AboutEntry:
        direct = code_links.about(repo.project, ["src/auth/keys.py"]).paths[0].direct
        (found,) = [e for e in direct if e.entry == name]
        return found

    before = item()
    assert before.freshness.changes_since == 1
    edited = repo.project.tree / name
    edited.write_text(edited.read_text() + "\nKeys rotate monthly.\n")
    after = item()
    assert after.freshness.written is None  # being edited: the edit is the update
    assert after.freshness.changes_since == 0
