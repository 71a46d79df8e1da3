"""A shallow clone says which history is missing instead of answering wrongly; brv stale
--ops writes curate operations that brv curate applies, after which nothing is stale."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from code_links_support import MODES, Repo

from brv_vc.services import code_links
from brv_vc.tree.project import Project


def test_a_shallow_clone_names_the_missing_history(tmp_path: Path, brv) -> None:
    repo = Repo(tmp_path / "proj", "in-project")
    repo.write("src/old.py", "o\n")
    repo.write("src/new.py", "n\n")
    repo.commit("code")
    repo.entry("misc/old/x.md", ["src/old.py"])
    for i in range(3):
        repo.write("src/old.py", f"o{i}\n")
        repo.commit(f"old {i}")
    repo.entry("misc/new/y.md", ["src/new.py"])
    repo.write("src/new.py", "n2\n")
    repo.commit("new changed")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--depth", "3", f"file://{repo.root}", str(clone)],
                   check=True)
    report = code_links.stale(Project(clone))
    assert [e.entry for e in report.entries] == ["misc/new/y.md"]
    assert report.missing_history is not None
    assert "shallow clone" in report.missing_history
    assert "1 linked entries were written before it" in report.missing_history
    text = brv("stale", cwd=clone)
    assert "git fetch --unshallow" in text.stdout
    # in the full history the old entry is stale too
    assert {e.entry for e in code_links.stale(repo.project).entries} == {"misc/old/x.md",
                                                                        "misc/new/y.md"}


@pytest.mark.parametrize("mode", MODES)
def test_ops_rewrite_renamed_files_and_flag_the_rest_and_curate_applies_them(
        tmp_path: Path, brv, mode: str) -> None:
    repo = Repo(tmp_path / "proj", mode)
    repo.write("src/auth/refresh.py", "r\n" * 20)
    repo.write("src/auth/jwt.py", "j\n")
    repo.commit("code")
    repo.entry("auth/jwt/refresh.md", ["src/auth/refresh.py"], text="Rotation rules.",
               title="Refresh")
    repo.entry("auth/jwt/tokens.md", ["src/auth/jwt.py"], title="Tokens")
    repo.mv("src/auth/refresh.py", "lib/session/refresh.py")
    repo.write("src/auth/jwt.py", "changed\n")
    repo.commit("move and change")
    out = brv("stale", "--ops", cwd=repo.root)
    assert out.exit_code == 0, out.stderr
    ops = json.loads(out.stdout)
    by_path = {op["path"]: op for op in ops}
    assert "- lib/session/refresh.py" in by_path["auth/jwt/refresh.md"]["content"]
    assert "review" not in by_path["auth/jwt/refresh.md"]
    flag = by_path["auth/jwt/tokens.md"]
    assert flag["review"] is True
    assert flag["tags"] == ["stale"]
    assert "src/auth/jwt.py was changed" in flag["reason"]
    applied = brv("curate", "--ops", "-", cwd=repo.root, input=out.stdout)
    assert applied.exit_code == 0, applied.stderr
    entry = (repo.project.tree / "auth/jwt/refresh.md").read_text()
    assert "- lib/session/refresh.py" in entry
    assert "src/auth/refresh.py" not in entry
    assert "Rotation rules." in entry  # the sections the operation does not name stay
    repo.commit_knowledge("apply brv stale --ops")
    assert code_links.stale(repo.project).entries == ()
    assert code_links.linked_entries(repo.project, ["lib/session/refresh.py"]) == {
        "lib/session/refresh.py": ("auth/jwt/refresh.md",)}
