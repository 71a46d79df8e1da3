"""The offline model read from wordllama's wheel without importing wordllama: the same
vectors as the package's own ``embed``, and a cold search with the lane imports neither the
package nor what it pulls in (pydantic, requests: most of the lane's cold cost)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from brv_vc.tree.project import Project

pytest.importorskip("wordllama", reason="the [semantic] extra (wordllama) is not installed")

TEXTS = ["keep a program running after I log out of ssh", "",
         "nohup\nAllow a process to live when the terminal gets killed: nohup command arg1",
         "Ünïcödé 日本語 — dashes, tabs\tand\nnew lines", "word " * 400]

PROBE = """
import sys
from brv_vc.clock import utcnow
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project
from pathlib import Path
found = search_tree(Project(Path(sys.argv[1])), "keep a program running after I log out",
                    now=utcnow(), record=False)
assert found.lanes == ("lexical", "semantic"), found
assert found.results[0].path == "commands/shell/nohup.md", found.results
print(",".join(m for m in ("wordllama", "pydantic", "requests", "safetensors")
               if m in sys.modules))
"""


def test_the_vectors_are_wordllamas_own() -> None:
    import numpy as np
    import wordllama  # type: ignore[import-untyped,unused-ignore]

    from brv_vc.services.semantic.models import embed
    from brv_vc.tree.embed_config import EmbedSettings

    model = wordllama.WordLlama.load(cache_dir=Path(wordllama.__file__).parent,
                                     disable_download=True)
    theirs = np.asarray(model.embed(TEXTS, norm=False), dtype=np.float32)
    norms = np.linalg.norm(theirs, axis=1, keepdims=True)
    theirs = theirs / np.where(norms > 0, norms, 1.0)
    ours = embed(EmbedSettings("wordllama"), TEXTS)
    assert ours.dtype == np.float32
    assert ours.shape == theirs.shape == (len(TEXTS), 256)
    assert np.array_equal(ours, theirs)


def test_a_search_with_the_lane_imports_no_part_of_the_wordllama_package(
        project: Project, brv) -> None:
    for title, content in (("nohup", "Allow a process to live when the terminal gets killed"),
                           ("df", "Display an overview of the filesystem disk space usage")):
        assert brv("curate", "add", "commands/shell", "--title", title, "--content", content,
                   cwd=project.root).exit_code == 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("BRV_EMBED")}
    done = subprocess.run([sys.executable, "-c", PROBE, str(project.root)],
                          env={**env, "BRV_EMBED_MODEL": "wordllama"},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
