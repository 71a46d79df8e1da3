"""``brv stale``'s text names each file's own reason for an entry linking several files (the
entry's line keeps the strongest): a change and a deletion both show (real git)."""

from __future__ import annotations

from pathlib import Path

from code_links_support import Repo
from conftest import run_brv


def test_a_multi_file_entry_shows_each_files_reason(tmp_path: Path) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/a.py", "A = 1\n")
    repo.write("src/b.py", "B = 1\n")
    repo.commit("code")
    repo.entry("code/pair/notes.md", ["src/a.py", "src/b.py"], title="Pair")
    repo.write("src/a.py", "A = 2\n")
    repo.git("rm", "-q", "src/b.py")
    repo.commit("change a, drop b")
    result = run_brv("stale", cwd=repo.root)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("code/pair/notes.md  deleted (1 commit since")
    assert "  src/a.py  (changed)" in lines
    assert "  src/b.py  (deleted)" in lines
