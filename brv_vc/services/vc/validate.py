"""``brv validate``: the WORKING tree must be valid knowledge (CI, ``pre-commit run --all-files``).

The pre-commit hook judges the staged blobs (``checks.check_staged``); this judges files on
disk, so a tree that was committed broken (``--no-verify``, another tool, a framework run
before ``brv vc init``) is caught too. It needs only ``.brv/``: git, when there is one,
says which files are tracked (derived files must not be). The same rules apply, one
message a file: malformed entries and schema errors, conflict markers, markdown outside the
layout, tracked derived/excluded files and tracked per-machine state. A run that was given
knowledge files and checked none is a failure, never a pass.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from brv_vc.services.vc.checks import StagedProblem, blob_problem
from brv_vc.tree.layout import ARCHIVE_DIR, Kind, is_derived, kind_of, misplaced
from brv_vc.tree.links import not_regular, odd_files
from brv_vc.tree.project import STATE_DIR, Project
from brv_vc.vc import exclusions, git


@dataclass(frozen=True)
class Validation:
    """What ``brv validate`` looked at and what it found."""

    files: int  # files of the tree looked at
    checked: int  # knowledge files parsed (entries, context.md)
    problems: tuple[StagedProblem, ...]
    outside: tuple[str, ...] = ()  # given paths that are not in the context tree (ignored)
    tracked_known: bool = True  # False outside git: tracked derived files cannot be judged


def validate_tree(project: Project, cwd: Path, paths: Sequence[str] = ()) -> Validation:
    """Validates the knowledge files on disk: ``paths`` (files or folders), or the whole tree.

    Args:
        project: the project (only ``.brv/`` is needed: no ``brv vc init``).
        cwd: the folder relative paths are taken from (a hook runs at the top of the work tree).
        paths: what to check; empty means the whole tree.

    Returns:
        The validation; it passed when ``problems`` is empty.
    """
    tree = project.tree
    tracked = _tracked(tree)
    outside: list[str] = []
    rels: set[str] = set()
    for given in paths or [str(tree)]:
        full = Path(os.path.abspath(cwd / given))
        rel = _inside(full, tree)
        if rel is None:
            outside.append(given)
        elif full.is_dir():
            rels.update(_walk(full, tree))
        else:
            rels.add(rel)
    if not paths and tracked:  # tracked files missing on disk are not knowledge to judge
        rels.update(p for p in tracked if is_derived(p) or exclusions.is_excluded(p))
    problems = [*_state_problems(project)]
    checked = 0
    knowledge = 0
    for rel in sorted(rels):
        shown = os.path.relpath(tree / rel, cwd)
        problem, parsed, is_md = _judge(tree, rel, rel if shown.startswith("..") else shown,
                                        tracked)
        knowledge += is_md
        checked += parsed
        if problem is not None:
            problems.append(problem)
    if not paths:  # symlinks and special files are never read (tree/links.py): list them
        for rel, what in odd_files(tree):
            error = not_regular(rel, what)
            problems.append(StagedProblem(rel, error.message, error.hint or ""))
    if knowledge and not checked and not problems:
        problems.append(StagedProblem(
            ", ".join(sorted(rels)[:3]),
            f"{knowledge} knowledge file(s) were given but none could be checked",
            "this is a bug in brv: please report it; run 'brv validate --all' meanwhile"))
    return Validation(len(rels), checked, tuple(problems), tuple(outside), tracked is not None)


def _inside(full: Path, tree: Path) -> str | None:
    try:
        rel = full.relative_to(tree.absolute())
    except ValueError:
        try:
            rel = full.resolve().relative_to(tree.resolve())
        except ValueError:
            return None
    return rel.as_posix() if rel.parts else ""


def _walk(folder: Path, tree: Path) -> list[str]:
    found: list[str] = []
    for top, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in (".git", ARCHIVE_DIR))
        base = Path(top).relative_to(tree).as_posix()
        found.extend(f if base == "." else f"{base}/{f}" for f in files)
    return found


def _tracked(tree: Path) -> set[str] | None:
    """Files git tracks under the tree (tree-relative), or None when it is in no repository."""
    files = git.tracked(tree)  # paths relative to tree
    return None if files is None else set(files)


def _judge(tree: Path, rel: str, shown: str, tracked: set[str] | None
           ) -> tuple[StagedProblem | None, bool, bool]:
    """(problem, parsed as knowledge, is a knowledge markdown file) for one tree path."""
    if is_derived(rel) or exclusions.is_excluded(rel):
        if tracked is not None and rel in tracked:
            what = "derived (brv regenerates it on every machine)" if is_derived(rel) else \
                "excluded from sync by the ignore rules"
            return StagedProblem(shown, f"is {what} but tracked by git",
                                 f"untrack it (it stays on disk): git rm --cached {shown}"
                                 ), False, False
        return None, False, False
    if not rel.endswith(".md"):
        return None, False, False
    if not (tree / rel).exists():
        return StagedProblem(shown, "does not exist", "check the path (relative to the current "
                             "folder)"), False, True
    kind = kind_of(rel)
    try:
        data = (tree / rel).read_bytes()
    except OSError as exc:
        return StagedProblem(shown, f"cannot be read: {exc.strerror}", "check the file and "
                             "its permissions"), False, True
    reason = misplaced(rel, data[:4096])  # a synthesis in a domain folder is in place
    if reason is not None:
        return StagedProblem(shown, reason, "move it into a topic folder (domain/topic/), or "
                             "out of .brv/context-tree if it is not knowledge"), False, True
    if kind is Kind.OTHER:  # a synthesis: checked as an entry
        kind = Kind.ENTRY
    parsed = kind in (Kind.ENTRY, Kind.CONTEXT)
    return blob_problem(shown, data, kind), parsed, kind is not Kind.OTHER


def _state_problems(project: Project) -> list[StagedProblem]:
    """Per-machine state (``.brv/state/``) that git tracks in the project's repository."""
    state = project.root / ".brv" / STATE_DIR
    if not state.is_dir():
        return []
    files = [p for p in git.tracked(state) or () if p != ".gitignore"]
    if not files:
        return []
    return [StagedProblem(
        f".brv/{STATE_DIR}/{files[0]}",
        f"per-machine state is tracked by git ({len(files)} file(s) under .brv/{STATE_DIR}/)",
        f"untrack it (your files stay on disk): git rm --cached -r .brv/{STATE_DIR}")]
