"""Helpers of bench_dream.py: near-duplicates, a dream process measured, decisions compared.

A dream's decisions are compared as sets of (operation, action, the files it names); the
old code runs from ``git archive`` of a ref (by default where this branch left main), each
on its own copy of the same tree with its own index (schemas differ between versions).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from brv_vc.format.entry import parse_entry, serialize_entry

REPO = Path(__file__).resolve().parent.parent
NOW = "2026-10-01T10:00:00Z"


def near_duplicates(tree: Path, paths: list[str], count: int, seed: int = 11) -> list[str]:
    """Writes ``count`` near-duplicates beside random entries; returns their paths.

    Half are copies with a word added to the title (a MERGE), half keep the title and
    lose part of the body (a revisit: TEMPORAL_UPDATE or a link).
    """
    rng = random.Random(seed)
    made = []
    for n, rel in enumerate(rng.sample(paths, count)):
        entry = parse_entry((tree / rel).read_bytes(), file=rel)
        if n % 2:
            copy = entry.with_changes(title=entry.title + " Copy")
        else:
            lines = entry.body.splitlines()
            copy = entry.with_changes(title=entry.title + " Revisited",
                                      body="\n".join(lines[: max(4, len(lines) * 2 // 3)]))
        target = rel[:-3] + ("_copy.md" if n % 2 else "_revisited.md")
        (tree / target).write_bytes(serialize_entry(copy))
        made.append(target)
    return made


def old_source(ref: str) -> Path:
    """The code of ``ref`` unpacked in a temporary folder (for PYTHONPATH).

    A folder holding ``brv_vc/`` is taken as the code itself (a ``git archive`` already
    unpacked, so the bench can run from one too).
    """
    if (Path(ref) / "brv_vc").is_dir():
        return Path(ref)
    dest = Path(tempfile.mkdtemp(prefix="brv-bench-old-"))
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], check=True,
                             capture_output=True).stdout
    tar = dest / "src.tar"
    tar.write_bytes(archive)
    with tarfile.open(tar) as t:
        t.extractall(dest, filter="data")
    return dest


def measured(code: Path, root: Path, *args: str) -> tuple[float, float, dict[str, Any]]:
    """Runs ``brv`` of ``code`` in ``root``: (seconds, peak RSS of this child in MB, its JSON)."""
    env = {**os.environ, "PYTHONPATH": str(code), "BRV_NOW": NOW}
    start = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        # cwd: ``-m`` puts the working folder first on sys.path, before PYTHONPATH, so run
        # from the repository it would import this checkout's brv_vc for the old code too
        proc = subprocess.Popen([sys.executable, "-m", "brv_vc", "-C", str(root), *args],
                                env=env, stdout=out, stderr=err, text=True, cwd=root)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        text = out.read()
        if proc.returncode != 0:
            raise SystemExit(f"brv {' '.join(args)} failed ({proc.returncode}):\n{text}\n"
                             f"{err.read()}")
    answer = json.loads(text) if text.strip().startswith("{") else {}
    global LAST_CPU
    LAST_CPU = usage.ru_utime + usage.ru_stime
    return seconds, usage.ru_maxrss / 1024, answer


LAST_CPU = 0.0  # user + system seconds of the last process :func:`measured` ran


def decisions(answer: dict[str, Any]) -> set[tuple[str, str, tuple[str, ...]]]:
    """A dream's consolidate decisions as comparable keys (from its log: every decision)."""
    out = set()
    for op in answer.get("operations", []):
        if op.get("operation") != "consolidate":
            continue
        named = [op.get("target"), *op.get("sources", []), *op.get("files", []), op.get("file"),
                 op.get("newer")]
        out.add((op["operation"], op["action"], tuple(p for p in named if p)))
    return out


def agreement(old: set[Any], new: set[Any]) -> str:
    """``97.5% (390 same, 5 only old, 5 only new)`` over the union of both."""
    union = old | new
    same = len(old & new)
    share = 100.0 * same / len(union) if union else 100.0
    return f"{share:.1f}% ({same} same, {len(old - new)} only old, {len(new - old)} only new)"
