"""A change to a file concerns the entries that still name its former path, and the entries
whose Files: list names a folder around it: ``brv about``, ``brv vc diff`` and the
pre-commit note name the same entries (one rule, real git)."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_links_support import Repo
from conftest import run_brv
from hooks_support import git

from brv_vc.services import code_links

OLD, NEW = "src/old/f.py", "src/x/f.py"
FORMER, FOLDER, OTHER = "auth/jwt/former.md", "auth/x/folder.md", "db/orm/other.md"


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write(OLD, "def f():\n    return 1\n" * 5)
    repo.write("src/x/g.py", "G = 1\n" * 5)
    repo.write("src/xy/h.py", "H = 1\n" * 5)
    repo.commit("code")
    repo.entry(FORMER, [OLD], title="Former")
    repo.entry(FOLDER, ["src/x/"], title="The x folder")
    repo.entry(OTHER, ["src/xy/"], title="Beside it")
    repo.mv(OLD, NEW)
    repo.commit("move f into x")
    code_links.stale(repo.project)  # reads the history once: the renames are known
    return repo


def test_about_diff_and_the_hook_name_the_former_paths_and_folders_entries(repo: Repo) -> None:
    about = code_links.about(repo.project, [NEW]).paths[0]
    assert {e.entry for e in (*about.direct, *about.folder)} == {FORMER, FOLDER}
    assert code_links.linked_entries(repo.project, [NEW]) == {NEW: (FORMER, FOLDER)}

    assert run_brv("hooks", "install", cwd=repo.root).exit_code == 0
    repo.write(NEW, "def f():\n    return 2\n")
    git("add", NEW, cwd=repo.root)
    proc = git("commit", "-q", "-m", "change f", cwd=repo.root, check=False)
    assert proc.returncode == 0, proc.stderr
    assert f"{NEW} changed; knowledge that describes it: {FORMER}, {FOLDER}" in proc.stderr

    data = run_brv("vc", "diff", "HEAD~1..HEAD", "--json", cwd=repo.root).json()
    assert data["code"]["stale"] == [
        {"path": NEW, "change": "M", "entries": [FORMER, FOLDER], "renamed_to": None}]
