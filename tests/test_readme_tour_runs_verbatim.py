"""The README's "A tour" runs as written, line by line, in a fresh shell and a fresh folder.

Each command of the tour (split as the ``Example:`` lines of ``--help`` are, here-documents
included) runs in order in one ``bash``, with this checkout's ``brv`` first on PATH; the
first that fails stops the run and names itself. A reader pasting the block gets what the
test gets: nothing the tour uses is made outside it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from cli_reference import shell_lines
from conftest import REPO

DONE = "@@brv-tour-line-done@@"


def tour() -> list[str]:
    """The commands of the README's tour, in order."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^## A tour\n+```bash\n(.*?)^```", readme, re.DOTALL | re.MULTILINE)
    assert found, "README.md has no '## A tour' section opening with a bash block"
    return shell_lines(found.group(1))


def run_tour(lines: list[str], cwd: Path) -> list[str]:
    """Runs ``lines`` in one fresh ``bash`` in ``cwd``; returns each line's output."""
    script = "".join(
        f"{line}\n__rc=$?; if [ $__rc -ne 0 ]; then echo \"tour line {i + 1} failed "
        f"(exit $__rc)\" >&2; exit 97; fi; echo {DONE}\n"
        for i, line in enumerate(lines))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent),
                                                   os.environ.get("PATH", "")])}
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    outputs = proc.stdout.split(f"{DONE}\n")
    if proc.returncode != 0:
        failed = lines[len(outputs) - 1] if len(outputs) <= len(lines) else "?"
        raise AssertionError(f"the README tour stopped at:\n{failed}\n\nstdout:\n{outputs[-1]}"
                             f"\nstderr:\n{proc.stderr}")
    return outputs[:len(lines)]


def test_the_tour_is_split_into_its_commands() -> None:
    lines = tour()
    heredoc = next(line for line in lines if "<<'EOF'" in line)
    assert heredoc.startswith("cat > ops.json <<'EOF'")
    assert heredoc.endswith("\nEOF")
    assert lines.index(heredoc) < lines.index("brv curate --ops ops.json --json           "
                                              "# each operation's result, then a summary")


def test_the_readme_tour_runs_verbatim_in_a_fresh_folder(tmp_path: Path) -> None:
    lines = tour()
    out = dict(zip(lines, run_tour(lines, tmp_path), strict=True))

    def said(prefix: str) -> str:
        return next(text for line, text in out.items() if line.startswith(prefix))

    batch = json.loads(said("brv curate --ops ops.json"))
    assert batch["ok"] is True
    assert batch["summary"] == {"added": 1, "updated": 1, "merged": 0, "deleted": 0,
                                "failed": 0}
    assert "token_expiry.md" in said("brv tree")
    assert "token_rotation.md" in said("brv tree")
    assert said("brv search").startswith("1. Token rotation")
    assert "[tier 2" in said("brv query")
    assert "tags: auth, security, incident" in said("brv show")
    assert ", 1 update\n" in said("brv show")  # the UPSERT, counted in words that agree
    assert "auth/jwt/token_expiry.md" in said("brv about src/auth/jwt.py")
    # the tour ends by writing the stale-knowledge operations back into ops.json
    assert json.loads((tmp_path / "tour" / "ops.json").read_text()) == []
