"""The hostile-input corpus: every case is refused cleanly or answered correctly, within bounds.

Refused: exit 1 (or 2, a usage error), a message on stderr naming the input, no traceback or
"internal error", the tree unchanged. Correct: exit 0, and whatever it wrote is knowledge
``brv validate`` accepts. Each case runs in process (click's runner, the real error boundary)
in a copy of one project made once, under a deadline (SIGALRM) and a memory limit
(RLIMIT_AS), so a hang or a runaway allocation fails the case instead of the run.
``BRV_CORPUS_TALLY=FILE`` appends each case's outcome to FILE (the counts of the report).
"""

from __future__ import annotations

import os
import resource
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from brv_vc.services.init import init_project
from brv_vc.tree.layout import is_derived
from brv_vc.tree.project import Project
from tests.conftest import Result, run_brv
from tests.hostile_corpus_cases import ENTRY, Case, cases

CASE_SECONDS = 20  # far above any case's real time (~50 ms): only a hang reaches it
MEMORY_HEADROOM = 1 << 30  # a case may map 1 GiB beyond what the test process holds
_TEMPLATE: dict[str, Path] = {}


class Hang(BaseException):
    """The case outlived CASE_SECONDS (a BaseException: brv's error boundary never eats it)."""


def _template(factory: pytest.TempPathFactory) -> Path:
    """A seeded project with its knowledge committed, made once a module and copied per case."""
    if "root" not in _TEMPLATE:
        root = factory.mktemp("corpus-template") / "proj"
        root.mkdir()
        init_project(root)
        for args in (("curate", "add", "api/auth", "--title", "Token rotation", "--content",
                      "Refresh tokens are single-use.", "--reason", "seed"),
                     ("vc", "init"), ("vc", "add", "."), ("vc", "commit", "-m", "seed")):
            done = run_brv(*args, cwd=root)
            assert done.exit_code == 0, (args, done.stderr)
        assert (root / ".brv/context-tree" / ENTRY).is_file()
        _TEMPLATE["root"] = root
    return _TEMPLATE["root"]


def knowledge(root: Path) -> dict[str, bytes]:
    """The project's files but state, git's own and derived files (regenerated at will)."""
    tree = root / ".brv/context-tree"
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if "/state/" in f"/{rel}/" or "/.git/" in f"/{rel}/" or path.is_dir():
            continue
        if path.is_relative_to(tree) and is_derived(path.relative_to(tree).as_posix()):
            continue
        out[rel] = path.read_bytes() if path.is_file() else b"<special>"
    return out


def _vm_bytes() -> int:
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * resource.getpagesize()
    except OSError:
        return 4 << 30


def bounded(run: Callable[[], Result]) -> Result:
    """Runs ``run`` under the deadline and the memory limit, both undone after."""
    def _alarm(*_: Any) -> None:
        raise Hang

    previous = signal.signal(signal.SIGALRM, _alarm)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _vm_bytes() + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        return run()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def outcome(case: Case, root: Path, before: dict[str, bytes], folder: Path) -> tuple[str, str]:
    """(category, detail): refusal | correct | traceback | hang | wrong change | unclear."""
    argv = tuple(a.replace("{f}", str(folder)) for a in case.argv)
    try:
        result = bounded(lambda: run_brv(*argv, cwd=root, input=case.stdin))
    except Hang:
        return "hang", f"no answer within {CASE_SECONDS} s"
    except Exception as exc:  # escaped the error boundary
        return "traceback", f"{type(exc).__name__}: {exc}"[:300]
    said = result.stderr + result.stdout
    if result.exit_code == 3 or "internal error" in said or "Traceback (most recent" in said:
        return "traceback", said[-300:]
    changed = knowledge(root) != before
    if result.exit_code in (1, 2):
        if changed:
            return "wrong change", f"refused (exit {result.exit_code}) but the tree changed"
        if not result.stderr.strip():
            return "unclear", "refused without a message"
        names = [n.replace("{f}", str(folder)) for n in case.names]
        if names and not any(n in result.stderr for n in names):
            return "unclear", f"the message names none of {names}: {result.stderr[:200]}"
        return "refusal", result.stderr.splitlines()[0][:200]
    if result.exit_code == 0:
        if changed and not case.may_change:
            return "wrong change", "a read-only command changed the tree"
        if changed:
            from brv_vc.services import vc

            problems = vc.validate_tree(Project(root), root).problems
            if problems:
                return "wrong change", f"wrote what brv cannot read: {problems[0]}"
        return "correct", ""
    return "unclear", f"exit {result.exit_code}: {said[-200:]}"


@pytest.fixture
def case_root(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "proj"
    shutil.copytree(_template(tmp_path_factory), root, symlinks=True)
    return root


ALL = cases()


@pytest.mark.parametrize("case", ALL, ids=[c.id for c in ALL])
def test_hostile_input(case: Case, case_root: Path, tmp_path: Path) -> None:
    folder = tmp_path / "files"
    folder.mkdir()
    for name, data in case.files.items():
        (folder / name).write_bytes(data)
    tree = case_root / ".brv/context-tree"
    for rel, data in case.tree_files.items():
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(data)
    before = knowledge(case_root)
    category, detail = outcome(case, case_root, before, folder)
    tally = os.environ.get("BRV_CORPUS_TALLY")
    if tally:
        with open(tally, "a", encoding="utf-8") as out:
            out.write(f"{case.id}\t{category}\t{detail[:160]!r}\n")
    assert category in ("refusal", "correct"), f"{case.id}: {category}: {detail}"
