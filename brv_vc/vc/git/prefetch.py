"""``git status`` started before the CLI is imported, for 'brv vc status' to adopt.

'brv vc status' is budgeted at 2x a plain 'git status' (DESIGN.md). Python start-up and the
CLI imports cost about as much as git itself, so the process entry (``cli/entry.py``) starts
git status first and the status service adopts the running process. Anything that could
change the answer (``prepare()`` rewriting .gitignore) discards it. Runtime imports stay at
os (and ``git``, which keeps to the same), so git starts within milliseconds: git is spawned
with ``os.posix_spawnp``, not ``subprocess`` (whose imports cost ~5 ms of CPU, a tenth of
what status adds to git at 25,000 entries).
"""

from __future__ import annotations

import os

from brv_vc.vc.git import Running, no_git_env, spawn

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import Any

STATUS_ARGS = ("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=normal")
# in-project mode: the project's repository, limited to the tree (changes.status's arguments)
IN_PROJECT_ARGS = ("status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all")
_prefetched: list[tuple[str, tuple[str, ...], Any]] = []


def prefetch_status(argv: Sequence[str]) -> None:
    """Starts ``git status`` early when ``argv`` is ``[-C DIR] vc status ...``.

    Standalone (``<project>/.brv/context-tree/.git``) and in-project (the nearest folder
    above the project holding ``.git``, the tree marked by its ``.gitattributes``) layouts
    are prefetched; any other case is left to the normal path. Never raises.
    """
    args = list(argv)
    cwd = os.getcwd()
    if args[:1] == ["-C"] and len(args) > 1:
        cwd, args = os.path.join(cwd, args[1]), args[2:]
    if args[:2] != ["vc", "status"]:
        return
    folder = os.path.realpath(cwd)
    while not os.path.isdir(os.path.join(folder, ".brv")):
        parent = os.path.dirname(folder)
        if parent == folder:
            return
        folder = parent
    tree = os.path.join(folder, ".brv", "context-tree")
    command: tuple[str, ...]
    if os.path.isdir(os.path.join(tree, ".git")):
        where, command = tree, STATUS_ARGS
    elif os.path.isfile(os.path.join(tree, ".gitattributes")):
        top = folder
        while not os.path.exists(os.path.join(top, ".git")):
            parent = os.path.dirname(top)
            if parent == top:
                return
            top = parent
        prefix = os.path.relpath(tree, top).replace(os.sep, "/")
        where, command = top, (*IN_PROJECT_ARGS, "--", prefix)
    else:
        return
    if not spawn.available():  # the normal path starts it as subprocess would
        return
    try:
        proc = spawn.Spawned(["git", "-C", where, *command], no_git_env())
    except (OSError, ImportError, AttributeError):  # no posix_spawnp (not POSIX): the normal path
        return
    import atexit

    atexit.register(discard_prefetched)  # e.g. 'vc status --help' never collects it
    _prefetched.append((where, command, proc))


def take_prefetched(args: Sequence[str], cwd: Path) -> Running | None:
    """The prefetched ``git status`` if it ran ``args`` in ``cwd``; None otherwise."""
    while _prefetched:
        where, command, proc = _prefetched.pop()
        if tuple(args) == command and where == os.path.realpath(cwd):
            return Running([list(args)], [proc])
        _stop(proc)
    return None


def start_status(workdir: Path, prefix: str) -> Running:
    """``git status`` of the knowledge in ``workdir``: the prefetched run when it is this one.

    ``prefix``: the tree's path in ``workdir`` ("" standalone); porcelain v2 with the branch.
    """
    args = [*IN_PROJECT_ARGS, "--", prefix] if prefix else list(STATUS_ARGS)
    from brv_vc.vc.git import start

    return take_prefetched(args, workdir) or start([args], workdir)


def discard_prefetched() -> None:
    """Stops a prefetched ``git status`` whose answer may be stale."""
    while _prefetched:
        _stop(_prefetched.pop()[2])


def _stop(proc: Any) -> None:
    if proc.poll() is None:
        # SIGTERM, not SIGKILL: git status may hold index.lock (it refreshes the index's stat
        # data), and only a signal git can catch lets it remove the lock on its way out
        proc.terminate()
    proc.communicate()
