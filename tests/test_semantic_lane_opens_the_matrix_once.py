"""A cold search with the semantic lane opens the model's matrix file once.

The matrix (``vectors-<digest>.npz``, 118 MB at 100,000 entries) is mapped, not read: its
version and model are checked and both arrays (the vectors, their content hashes) mapped
through one handle (``index/vectors.mapped``). It used to be opened seven times a cold
search: by ``numpy.load`` for the version, then for each array to read its place as a zip,
to read its header and to map it. The opens are counted
by Python's own seam for them, an audit hook (``sys.addaudithook``: every ``open`` of a
file raises the ``open`` event), in a real ``brv search`` process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

from brv_vc.tree.project import Project

pytest.importorskip("numpy")
pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

LANE = {"BRV_EMBED_MODEL": "wordllama", "BRV_EMBED_BASE_URL": "", "BRV_EMBED_API_KEY_ENV": ""}
QUESTION = "keep a program running after I log out"
# python -m brv_vc search ..., with an audit hook that counts the opens of one file
COUNTING = """
import os, runpy, sys
WATCHED = sys.argv.pop(1)
opened = []
def count(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)) and (
            os.path.basename(os.fsdecode(args[0])) == WATCHED):
        opened.append(args[1])
sys.addaudithook(count)
sys.argv[0] = "brv"
try:
    runpy.run_module("brv_vc", run_name="__main__", alter_sys=True)
finally:
    sys.stderr.write(f"\\nopened {len(opened)}\\n")
"""


def _search(project: Project, watched: str = "none") -> tuple[list[str], int]:
    """(the paths a cold ``brv search`` found, how often it opened the file ``watched``)."""
    env = {**os.environ, **LANE, "PYTHONPATH": os.pathsep.join(
        filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-c", COUNTING, watched, "search", QUESTION,
                           "--json", "--no-record"], cwd=project.root, env=env,
                          capture_output=True, text=True, check=False, timeout=600)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["lanes"] == ["lexical", "semantic"]
    return [r["path"] for r in found["results"]], int(done.stderr.rsplit("opened ", 1)[1])


def test_a_cold_search_opens_the_matrix_file_once(project: Project, brv) -> None:
    for title, content in (("nohup", "Allow a process to live when the terminal gets killed"),
                           ("df", "Display an overview of the filesystem disk space usage")):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    first, _ = _search(project)  # embeds both, writes the matrix file and the kept rows
    (matrix,) = project.state.glob("vectors-*.npz")
    again, opened = _search(project, matrix.name)  # a new process: a cold search
    assert again == first
    assert again[0] == "commands/shell/nohup.md"
    assert opened == 1
