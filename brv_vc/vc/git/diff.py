"""What changed between commits, the index and the work tree, read from ``git diff --raw -z``.

Part of the git hooks' reads (issue #6): they run git with bytes I/O and, for the pre-commit
check, with the index file git handed to the hook (``git commit -a``/``git commit PATHS``
stage into a temporary index exported as GIT_INDEX_FILE: that is what will be committed).
"""

from __future__ import annotations

from brv_vc.errors import GitError
from brv_vc.vc.git.errors import translate
from brv_vc.vc.git.process import _git_bytes, run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from brv_vc.vc.git.raw import Change

NULL_SHA = "0" * 40


def changed_between(repo: Path, old: str, new: str, pathspec: str | None = None, *,
                    diff_filter: str | None = None) -> list[str]:
    """Paths that differ between two commits (renames as delete + add), repo-relative.

    ``diff_filter``: git's ``--diff-filter`` (``"D"``: the paths ``old`` has and ``new`` has not).

    Raises:
        GitError: either names no commit.
    """
    args = ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff",
            *([f"--diff-filter={diff_filter}"] if diff_filter else []), old, new]
    out = _git_bytes([*args, "--", pathspec] if pathspec else args, repo)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def differing_from(repo: Path, rev: str, pathspec: str, *, staged: bool = False) -> list[str]:
    """Paths whose work-tree file (``staged``: index entry) differs from commit ``rev``'s.

    Repo-relative, renames as delete + add; ``pathspec``: one path or ``.``.

    Raises:
        GitError: ``rev`` names no commit.
    """
    args = ["diff", *(["--cached"] if staged else []), "--name-only", "-z", "--no-renames",
            "--no-ext-diff", rev, "--", pathspec]
    return [p for p in _git_bytes(args, repo).decode("utf-8", "surrogateescape").split("\0")
            if p]


def staged_files(
    repo: Path, index_file: str | None = None, pathspec: str | None = None
) -> list[tuple[str, str, str]]:
    """The changes staged for the next commit, as ``(status, path, blob id)``.

    ``status`` is git's letter (A, M, D, T...); a deleted path has the null blob id.
    ``index_file`` is the GIT_INDEX_FILE git gave the hook, if any.
    """
    return [(status, path, blob) for status, path, blob, _ in
            staged_entries(repo, index_file, pathspec)]


def staged_entries(
    repo: Path, index_file: str | None = None, pathspec: str | list[str] | None = None
) -> list[tuple[str, str, str, str]]:
    """:func:`staged_files` with the staged mode: ``(status, path, blob id, mode)``.

    The mode (``120000`` for a symlink) comes with the change itself, so a check of the
    staged paths never lists the whole index. ``pathspec``: one path, or git arguments
    starting with ``--``.
    """
    args = ["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff"]
    if isinstance(pathspec, str):
        args += ["--", pathspec]
    elif pathspec:
        args += pathspec
    return _raw(_staged_diff(args, repo, index_file))


def staged_moves(repo: Path, index_file: str | None = None
                 ) -> list[tuple[str, str, str, str, str]]:
    """The whole staged change with git's renames: ``(status, path, blob id, mode, source)``.

    ``source`` is the old path of a rename (``R``) or copy (``C``), else "". One diff serves
    both of the pre-commit hook's readers: the check of staged knowledge (renames split back
    into a removal and an addition: :func:`unrenamed`) and the note on staged code.
    """
    args = ["diff", "--cached", "--raw", "-z", "-M", "--no-abbrev", "--no-ext-diff"]
    return _moves(_staged_diff(args, repo, index_file))


def _staged_diff(args: list[str], repo: Path, index_file: str | None) -> bytes:
    """``git diff --cached ARGS``, as HEAD against the tree the index's cache-tree names.

    A hook's index (``git commit`` brings its cache-tree up to date before pre-commit) names
    the tree it commits (``cache_tree.committed_tree``): two trees are diffed without reading
    the index's entries, whatever the size of the tree. Otherwise, or when git cannot (no
    HEAD yet), the index itself.
    """
    tree = None
    if index_file:  # a hook's (vc add's own listing has none: no mmap, ~0.5 ms)
        from brv_vc.vc.git.cache_tree import committed_tree

        tree = committed_tree(index_file)
    if tree is not None:
        cut = args.index("--") if "--" in args else len(args)
        trees = [a for a in args[:cut] if a != "--cached"] + ["HEAD", tree] + args[cut:]
        try:
            return _git_bytes(trees, repo)
        except GitError:
            pass
    return _git_bytes(args, repo, index_file=index_file)


def unrenamed(moves: Sequence[tuple[str, str, str, str, str]]
              ) -> list[tuple[str, str, str, str]]:
    """:func:`staged_moves` rows as :func:`staged_entries` gives them (``--no-renames``).

    A rename is its source's removal plus its target's addition; a copy, the addition.
    Sorted by path, as git lists them.
    """
    rows: list[tuple[str, str, str, str]] = []
    for status, path, blob, mode, source in moves:
        if status == "R":
            rows.append(("D", source, NULL_SHA, "000000"))
        rows.append(("A" if status in "RC" else status, path, blob, mode))
    return sorted(rows, key=lambda row: row[1])


def changed_entries(repo: Path, old: str, new: str | None, pathspec: str | None = None
                    ) -> list[tuple[str, str, str, str]]:
    """``(status, path, blob id, mode)`` of every path that differs between two commits.

    Renames are a deletion plus an addition; the blob and mode are those at ``new``.
    ``new`` None: ``old`` is one range argument (``A...B``: from their merge base to B).
    """
    revs = [old] if new is None else [old, new]
    args = ["diff", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff", *revs]
    return _raw(_git_bytes([*args, "--", pathspec] if pathspec else args, repo))


def _raw(out: bytes) -> list[tuple[str, str, str, str]]:
    """``--no-renames`` raw output as ``(status, path, blob id, mode)`` (no sources to keep)."""
    return [(status, path, blob, mode) for status, path, blob, mode, _ in _moves(out)]


def _moves(out: bytes) -> list[tuple[str, str, str, str, str]]:
    """The one reader of ``git diff --raw -z``: ``(status, path, blob id, mode, source)``.

    Each change is ``:old_mode new_mode old_id new_id status`` then its path, or for a
    rename (``R``) or copy (``C``) its source and its path; blob and mode are the new side's.
    """
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    found: list[tuple[str, str, str, str, str]] = []
    i = 0
    while i + 1 < len(fields) and fields[i].startswith(":"):
        parts = fields[i].split()  # ":old_mode new_mode old_id new_id status"
        letter = parts[4][:1]
        if letter in "RC" and i + 2 < len(fields):
            found.append((letter, fields[i + 2], parts[3], parts[1], fields[i + 1]))
            i += 3
        else:
            found.append((letter, fields[i + 1], parts[3], parts[1], ""))
            i += 2
    return found


def compare(repo: Path, *args: str, renames: bool = True, check: bool = True) -> list[Change]:
    """``git diff --raw ARGS`` as changes (status, path before, path after, old and new blob).

    ``args``: revisions, ``--cached``, a ``--diff-filter``, then a pathspec after ``--``.
    ``renames``: git's rename detection (``-M``); a rename's paths differ, others' are equal.
    A blob id of zeros stands for the work tree's side.

    Raises:
        GitError: (with ``check``) git refused, in :func:`errors.translate`'s words.
    """
    full = ["diff", "--raw", "-z", "-M" if renames else "--no-renames", "--no-abbrev",
            "--no-ext-diff", *args]
    proc = run(full, repo, check=False)
    if check and proc.returncode != 0:
        raise translate(full, proc)
    from brv_vc.vc.git.raw import changes  # not on the path of vc status's changed_between

    return changes(proc.stdout.split("\0"))
