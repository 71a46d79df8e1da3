"""Real git repositories holding code and a brv project, in either git mode.

Every commit gets its own committer date one minute after the previous one, so standalone
mode (entries and code in two histories, compared by time) is exact in tests.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import run_brv

from brv_vc.services.init import init_project
from brv_vc.tree.project import Project

MODES = ("in-project", "standalone")
ENTRY = """---
title: {title}
---
## Raw Concept
**Files:**
{files}

## Narrative
{text}
"""


class Repo:
    """A code repository with a brv project at its root, in one git mode."""

    def __init__(self, root: Path, mode: str) -> None:
        self.root = root
        self.mode = mode
        self.tick = 0
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        (root / "README.md").write_text("code\n")
        self.commit("initial")
        init_project(root)
        self.project = Project(root)
        if mode == "in-project":
            result = run_brv("vc", "init", "--in-project", cwd=root)
        else:
            (root / ".gitignore").write_text(".brv/\n")
            self.commit("ignore .brv")
            result = run_brv("vc", "init", cwd=root)
        assert result.exit_code == 0, result.stderr

    def env(self) -> dict[str, str]:
        self.tick += 1
        date = f"2026-01-01T00:{self.tick // 60:02d}:{self.tick % 60:02d}Z"
        return {**os.environ, "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}

    def git(self, *args: str, cwd: Path | None = None) -> str:
        proc = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", *args],
                              cwd=cwd or self.root, env=self.env(), capture_output=True,
                              text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def mv(self, old: str, new: str) -> None:
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", old, new)

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def entry(self, rel: str, files: list[str], text: str = "", title: str = "Notes") -> None:
        """Writes an entry and commits it where this mode keeps knowledge."""
        body = ENTRY.format(title=title, files="\n".join(f"- {f}" for f in files), text=text)
        (self.project.tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (self.project.tree / rel).write_text(body)
        self.commit_knowledge(f"knowledge: {rel}")

    def commit_knowledge(self, message: str) -> None:
        if self.mode == "in-project":
            self.commit(message)
        else:
            tree = self.project.tree
            self.git("add", "-A", cwd=tree)
            self.git("commit", "-q", "--allow-empty", "-m", message, cwd=tree)
