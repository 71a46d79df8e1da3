"""The pre-commit check: what is STAGED must be valid knowledge.

It reads the blobs in the index git is about to commit (never the working tree: a file may be
staged in one state and edited further, and pre-commit-style tools stash unstaged changes),
and refuses, one clear message a file: symlinks, per-machine state (``.brv/state/``), derived or
excluded files that were force-added, markdown outside the layout, conflict markers,
malformed entries, and frontmatter the JSON Schema rejects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from brv_vc.errors import BrvError
from brv_vc.format.conflicts import conflict_line_in
from brv_vc.record import NamedTuple
from brv_vc.services.entry_check import FRONTMATTER_SCHEMA, entry_check
from brv_vc.tree.layout import Kind, is_derived, is_synthesis_file, kind_of, misplaced
from brv_vc.tree.project import STATE_DIR
from brv_vc.vc import git
from brv_vc.vc.git.symlinks import LINK_MODE
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path



class StagedProblem(NamedTuple):
    """Why one staged file may not be committed, and how to fix it.

    Records here are NamedTuples, not dataclasses: each frozen dataclass costs ~0.7 ms of
    CPU to build at import, in every commit and pre-commit hook.
    """

    file: str  # repo-relative, as git prints it
    message: str
    hint: str
    key: str = ""


class StagedCheck(NamedTuple):
    """The staged tree paths (tree-relative, deletions included) and the problems found."""

    paths: tuple[str, ...]
    problems: tuple[StagedProblem, ...]
    checked: int  # knowledge files parsed
    deleted: tuple[str, ...] = ()  # the staged deletions (repository paths)


def check_staged(repo: KnowledgeRepo, index_file: str | None,
                 staged: Sequence[tuple[str, str, str, str]] | None = None,
                 blobs: Mapping[str, bytes] | None = None) -> StagedCheck:
    """Validates the staged knowledge files of the tree's repository.

    Args:
        repo: the repository holding the tree.
        index_file: the GIT_INDEX_FILE git exported to the hook, if any.
        staged: the ``git.staged_entries`` rows of :func:`check_scope`, when the caller
            listed the change already (``brv vc commit``, the pre-commit hook): not listed again.
        blobs: blob id -> bytes the caller read already: only the others are read.

    Returns:
        The staged tree paths and one problem per refused file.

    Raises:
        GitError: git could not list or read the staged files.
    """
    if staged is None:
        staged = git.staged_entries(repo.workdir, index_file, check_scope(repo))
    tree_paths = [rel for _, p, _, _ in staged if (rel := repo.tree_path(p)) is not None]
    present = [(path, blob) for status, path, blob, _ in staged if status != "D"]
    problems: dict[str, StagedProblem] = _state_files(repo, [p for p, _ in present])
    # the staged modes come with the change: a link is found without listing the index
    links = [p for status, p, _, mode in staged if status != "D" and mode == LINK_MODE]
    for path in links:
        if path not in problems:
            problems[path] = StagedProblem(
                path,
                "is a symlink; brv never reads or writes through a link, and a teammate's "
                "clone would follow it outside the tree",
                f"unstage it with 'git rm --cached {path}' and commit the real file instead",
            )
    unjudged = [p for p, _ in present if p not in problems]
    for path in sorted(git.ignored_paths(repo.workdir, unjudged)):
        problems[path] = StagedProblem(
            path,
            "is excluded from sync by the ignore rules but was force-added",
            f"unstage it with 'git rm --cached {path}' (brv keeps it local on purpose)",
        )
    to_read: list[tuple[str, str, Kind]] = []
    maybe_synthesis: dict[str, tuple[str, str]] = {}
    for path, blob in present:
        if path in problems:
            continue
        rel = repo.tree_path(path)
        if rel is None:  # .brv/state, .brv/config.yaml...: not the tree
            continue
        if is_derived(rel):
            problems[path] = StagedProblem(
                path,
                "is derived (brv regenerates it on every machine) and is never committed",
                f"unstage it with 'git rm --cached {path}'",
            )
            continue
        reason = misplaced(rel)
        if reason is not None and rel.count("/") != 1:
            problems[path] = _misplaced_problem(path, reason)
            continue
        kind = kind_of(rel)
        if kind in (Kind.ENTRY, Kind.CONTEXT) or rel.endswith(".md"):
            # a domain-level file is in place only as a synthesis: decided on its blob
            to_read.append((path, blob, Kind.ENTRY if reason else kind))
            if reason:
                maybe_synthesis[path] = (rel, reason)
    known = blobs or {}
    blobs = {**known, **git.read_blobs(repo.workdir, [blob for _, blob, _ in to_read
                                                      if blob not in known])}
    checked = 0
    for path, blob, kind in to_read:
        if path in maybe_synthesis:
            rel, reason = maybe_synthesis[path]
            if not is_synthesis_file(rel, blobs.get(blob, b"")[:4096]):
                problems[path] = _misplaced_problem(path, reason)
                continue
        problem = blob_problem(path, blobs.get(blob, b""), kind)
        checked += kind in (Kind.ENTRY, Kind.CONTEXT)
        if problem is not None:
            problems[path] = problem
    ordered = tuple(problems[p] for p in sorted(problems))
    deleted = tuple(path for status, path, _, _ in staged if status == "D")
    return StagedCheck(tuple(sorted(set(tree_paths))), ordered, checked, deleted)


UNAPPLIED_MERGE_KEY = "merge"  # StagedProblem.key of unapplied_merge_problem (cli/hook_text.py)


def unapplied_merge_problem(repo: KnowledgeRepo, git_dir: Path,
                            index_tree: str | None) -> StagedProblem | None:
    """Refuses committing a merge git never applied (``vc/git/merge.py``), else None.

    Trigger: ``git merge`` (or a pull's) printed "Unable to write index." and exited 1 with
    MERGE_HEAD written and the index still HEAD's. Why: the commit would record HEAD's tree
    as the merge, the other side's changes and deletions undone with no conflict shown.
    Outcome: one problem naming the commit, the pre-commit hook and ``brv vc commit`` alike.
    """
    from brv_vc.vc.git.merge import unapplied_merge

    head = unapplied_merge(repo.workdir, git_dir, index_tree)
    if head is None:
        return None
    return StagedProblem(
        "MERGE_HEAD",
        f"git's merge of {head[:7]} never reached the index (git could not write it: "
        "'Unable to write index'); committing now would record your own tree as the merge "
        "and undo the other side's changes",
        "run 'git merge --abort' then pull again", UNAPPLIED_MERGE_KEY)


def check_scope(repo: KnowledgeRepo) -> str | None:
    """The pathspec :func:`check_staged` judges (None: the whole repository).

    In-project mode looks only under ``.brv/``: code files are not ours to judge.
    """
    return repo.prefix.removesuffix("context-tree") or None


def in_check_scope(repo: KnowledgeRepo, path: str) -> bool:
    """True when the repository path is within :func:`check_scope`."""
    scope = check_scope(repo)
    return scope is None or path.startswith(scope)


def _state_files(repo: KnowledgeRepo, paths: list[str]) -> dict[str, StagedProblem]:
    """Refuses staged files under ``.brv/state/`` (in-project mode).

    Trigger: ``git add -A`` in a clone made before state was ignored, or ``git add -f``.
    Why: brv.db and index.db are per machine (signals, index); committed, they would
    overwrite every teammate's own. Outcome: one problem a file, naming the unstage command.
    """
    if not repo.in_project:
        return {}  # standalone: state lives outside the repository of the tree
    state = repo.prefix.removesuffix("context-tree") + STATE_DIR
    found = {}
    for path in paths:
        if path.startswith(state + "/") and path != f"{state}/.gitignore":
            found[path] = StagedProblem(
                path,
                f"is per-machine state ({state}/: search index, scoring signals, logs) and is "
                "never committed",
                f"unstage the folder with 'git rm --cached -r {state}' (your files stay on disk)",
            )
    return found


def _misplaced_problem(path: str, reason: str) -> StagedProblem:
    return StagedProblem(
        path,
        reason,
        "move it into a topic folder (git mv it to domain/topic/), or out of "
        ".brv/context-tree if it is not knowledge",
    )


def blob_problem(path: str, data: bytes, kind: Kind) -> StagedProblem | None:
    """The problem of one knowledge file's bytes (conflict markers, format, schema), or None."""
    line = conflict_line_in(data)  # the one rule (format/conflicts.py); free without "<<<<<<<"
    if line is not None:
        return StagedProblem(
            path,
            f"has a merge conflict marker at line {line}",
            "resolve the conflict (keep the right text, delete the <<<<<<< ======= >>>>>>> "
            f"lines), then 'git add {path}'",
        )
    if kind not in (Kind.ENTRY, Kind.CONTEXT):
        return None
    try:
        entry_check(data, path, kind)
    except BrvError as error:
        return StagedProblem(path, error.message, error.hint or "", error.key or "")
    return None


__all__ = ["FRONTMATTER_SCHEMA", "UNAPPLIED_MERGE_KEY", "StagedCheck", "StagedProblem", "blob_problem", "check_scope",
           "check_staged", "entry_check", "in_check_scope", "unapplied_merge_problem"]
