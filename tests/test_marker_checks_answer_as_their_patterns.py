"""The conflict-marker checks, whose substring pre-checks spare most regex scans, answer as
``git grep`` (the commit and push check) and as the anchored pattern (the staged-file check)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from brv_vc.services.vc import checks
from brv_vc.services.vc.markers import _marker_triplet
from brv_vc.tree.layout import Kind

TEXTS = {
    "triplet": b"a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n",
    "bare_triplet": b"<<<<<<<\n=======\n>>>>>>>\n",
    "crlf": b"<<<<<<< a\r\n=======\r\n>>>>>>> b\r\n",
    "indented": b" <<<<<<< a\n=======\n>>>>>>> b\n",
    "mid_line": b"x <<<<<<< a\n=======\nx >>>>>>> b\n",
    "no_start": b"=======\n>>>>>>> b\n",
    "only_start": b"<<<<<<< a\n",
    "only_end": b"text\n>>>>>>> theirs\n",
    "only_base": b"text\n||||||| base\n",
    "six": b"<<<<<< a\n=======\n>>>>>> b\n",
    "eight": b"<<<<<<<< a\n=======\n>>>>>>>> b\n",
    "tight": b"<<<<<<<a\n>>>>>>>b\n|||||||c\n",
    "heading": b"Title\n=======\nbody\n",
    "binary": b"\0<<<<<<< a\n=======\n>>>>>>> b\n",
    "plain": b"---\ntitle: \"x\"\n---\nbody\n",
    "empty": b"",
}


def test_the_triplet_check_finds_what_git_grep_finds(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    for name, data in TEXTS.items():
        (repo / f"{name}.md").write_bytes(data)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    grep = subprocess.run(["git", "grep", "-l", "-I", "--all-match", "-e", "^<<<<<<<", "-e",
                           "^=======", "-e", "^>>>>>>>", "--cached"], cwd=repo,
                          capture_output=True, text=True, check=False).stdout.split()
    assert grep  # the cases hold some
    assert sorted(f"{n}.md" for n, data in TEXTS.items() if _marker_triplet(data)) == grep


def test_the_staged_file_check_finds_what_its_pattern_finds() -> None:
    for name, data in TEXTS.items():
        problem = checks.blob_problem(f"{name}.md", data, Kind.OTHER)
        marker = checks._CONFLICT.search(data)
        assert (problem is not None) == (marker is not None), name
        if marker is not None:
            line = data.count(b"\n", 0, marker.start()) + 1
            assert problem is not None
            assert problem.message == f"has a merge conflict marker at line {line}"
