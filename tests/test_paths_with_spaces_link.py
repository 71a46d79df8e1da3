"""A path with a space links in the forms people write it (backticked, quoted, escaped), in a
Files: list and in the text; its non-existent prefix (``src/with``) collects nothing
(real git: the entry goes stale when that file changes)."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_links_support import MODES, Repo

from brv_vc.index.code_refs import extract
from brv_vc.services import code_links

SPACED = "src/with space/f.py"
FORMS = {"ticked": f"`{SPACED}` (the parser)", "quoted": f'"{SPACED}"',
         "escaped": SPACED.replace(" ", "\\ ")}


@pytest.mark.parametrize("form", sorted(FORMS))
def test_each_form_is_one_path_in_a_files_list_and_in_the_text(form: str) -> None:
    named = FORMS[form]
    body = f"## Raw Concept\n**Files:**\n- {named}\n\n## Narrative\nSee {named} here.\n"
    assert extract(body) == ((SPACED, "files"),)
    assert extract(f"## Narrative\nSee {named} here.\n") == ((SPACED, "text"),)


@pytest.fixture(params=MODES)
def repo(request: pytest.FixtureRequest, tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", request.param)
    repo.write(SPACED, "def f():\n    return 1\n" * 5)
    repo.write("src/with", "a file named like the prefix\n")
    repo.commit("code")
    repo.entry("parse/spaced/files.md", [FORMS["ticked"]], title="Files list")
    repo.entry("parse/spaced/text.md", [], text=f"The parser lives in {FORMS['escaped']}.",
               title="Text")
    return repo


def test_a_change_to_the_spaced_file_makes_both_entries_stale(repo: Repo) -> None:
    assert code_links.stale(repo.project).linked_entries == 2
    about = code_links.about(repo.project, ["src/with"]).paths[0]
    assert about.direct == ()
    repo.write(SPACED, "def f():\n    return 2\n")
    repo.commit("change the spaced file")
    found = {e.entry: e for e in code_links.stale(repo.project).entries}
    assert set(found) == {"parse/spaced/files.md", "parse/spaced/text.md"}
    assert found["parse/spaced/files.md"].files == (SPACED,)
    (spaced,) = code_links.about(repo.project, [SPACED]).paths
    assert {e.entry for e in spaced.direct} == {"parse/spaced/files.md", "parse/spaced/text.md"}
