"""An older commit's ``brv_vc``, extracted for a test that compares its output with today's."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def extract(commit: str, where: Path) -> Path:
    """``commit``'s ``brv_vc`` under ``where`` (skips when the checkout lacks the commit)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "brv_vc"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        pytest.skip(f"the reference commit {commit} is not in this checkout's history")
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def trees(base: Path, count: int, seed: int, odd: dict[str, str], *names: str
          ) -> tuple[list[str], str]:
    """A generated tree with the ``odd`` files in its first topic, copied to ``base/<name>``
    for each name (one for each code compared); (its entries, that topic)."""
    import shutil

    from bench.gen_tree import generate

    template = base / "template"
    entries = generate(template, count, seed=seed)
    topic = entries[0].rsplit("/", 1)[0]
    for name, text in odd.items():
        (template / ".brv/context-tree" / topic / name).write_text(text, encoding="utf-8")
    for name in names:
        shutil.copytree(template, base / name, symlinks=True)
    return entries, topic


def unmeasured(env: dict[str, str]) -> dict[str, str]:
    """``env`` without coverage's trigger for subprocesses: the reference code is not this
    checkout's, and measured it would count as files of its own (``source_pkgs``)."""
    return {k: v for k, v in env.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
