"""A search in a tree without the semantic lane imports neither the lane nor numpy, and
opens no vector file: the cold search budget holds as before the lane existed."""

from __future__ import annotations

import subprocess
import sys

from brv_vc.tree.project import Project

PROBE = """
import sys
from brv_vc.clock import utcnow
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project
from pathlib import Path
found = search_tree(Project(Path(sys.argv[1])), "token rotation", now=utcnow())
assert found.results and found.lanes == ("lexical",), found
loaded = [m for m in ("numpy", "brv_vc.services.semantic", "brv_vc.index.vectors")
          if m in sys.modules]
print(",".join(loaded))
"""


def test_a_search_without_the_lane_imports_none_of_it(project: Project, brv) -> None:
    assert brv("curate", "add", "a/b", "--title", "Token rotation", "--content", "Rotate keys.",
               cwd=project.root).exit_code == 0
    env = {k: v for k, v in __import__("os").environ.items() if not k.startswith("BRV_EMBED")}
    done = subprocess.run([sys.executable, "-c", PROBE, str(project.root)], env=env,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""
    assert not (project.state / "vectors.db").exists()
