"""The index: what it holds, and the actions that stage, unstage and rebuild its entries.

Each function runs in a :class:`process.Worktree` (``vc/repo.KnowledgeRepo``), whose ``git``
words a failure through :func:`errors.translate`. ``index_file``: another index than the
repository's own (a commit made apart, as ``vc commit`` and ``vc init --adopt`` do).
``pathspec``: git arguments, starting with ``--``.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from brv_vc.vc.git.process import Completed, Worktree


def _nul(paths: Sequence[str]) -> str:
    return "".join(f"{p}\0" for p in paths)


def in_index(repo: Worktree, path: str, *, or_head: bool = False) -> bool:
    """True when the index holds ``path`` (or HEAD does, with ``or_head``; a folder counts).

    ``or_head`` before the first commit asks the index alone.
    """
    with_head = ["--with-tree=HEAD"] if or_head else []
    return repo.git_ok("ls-files", "--error-unmatch", *with_head, "--", path) is not None


def indexed(repo: Worktree, pathspec: Sequence[str], *, index_file: Path | None = None
            ) -> list[str]:
    """The paths the index holds under ``pathspec`` (``ls-files``)."""
    out = repo.git("ls-files", "-z", *pathspec, index_file=index_file).stdout
    return [p for p in out.split("\0") if p]


def unmerged(repo: Worktree, *, everywhere: bool = False) -> set[str]:
    """The knowledge paths the index records as unmerged (``ls-files -u``).

    ``everywhere``: every unmerged path of the repository (in-project: code too).
    """
    scope = () if everywhere else repo.pathspec()
    out = repo.git("ls-files", "-u", "-z", *scope).stdout
    return {record.split("\t", 1)[1] for record in out.split("\0") if "\t" in record}


def unmerged_stages(repo: Worktree) -> dict[str, dict[int, str]]:
    """The unmerged knowledge paths with their stages' blob ids (``ls-files -u``).

    Stage 1 is the merge base's version, 2 ours (HEAD's), 3 theirs; a side that deleted the
    path has no stage (a modify/delete conflict).
    """
    out = repo.git("ls-files", "-u", "-z", *repo.pathspec()).stdout
    stages: dict[str, dict[int, str]] = {}
    for record in out.split("\0"):
        info, tab, path = record.partition("\t")
        fields = info.split()
        if tab and len(fields) == 3 and fields[2].isdigit():
            stages.setdefault(path, {})[int(fields[2])] = fields[1]
    return stages


def stage_all(repo: Worktree, paths: Sequence[str]) -> Completed:
    """``git add -A`` of ``paths`` (new, changed and deleted files).

    The caller reads a refusal (an ignored path, a special file) from the returned process.
    """
    return repo.git("add", "-A", "--", *paths, check=False)


def force_add(repo: Worktree, paths: Sequence[str], *, index_file: Path | None = None) -> None:
    """Stages ``paths`` even where an ignore rule covers them (``add -f``)."""
    repo.git("add", "-f", "--", *paths, index_file=index_file)


def unstage(repo: Worktree, pathspec: Sequence[str], rev: str = "HEAD") -> None:
    """Sets the index entries of ``pathspec`` back to commit ``rev``'s (``reset REV``)."""
    repo.git("reset", "-q", rev, *pathspec)


def move_head(repo: Worktree, rev: str, mode: str) -> None:
    """Moves the branch to commit ``rev`` (``reset --MODE``).

    ``soft`` keeps the index and the files, ``mixed`` resets the index, ``hard`` the files too.

    Raises:
        GitError: git refused.
    """
    repo.git("reset", "-q", f"--{mode}", rev)


def untrack(repo: Worktree, paths: Sequence[str]) -> None:
    """Removes ``paths`` (folders too) from the index, keeping the files (``rm --cached``)."""
    repo.git("rm", "-q", "-r", "--cached", "--ignore-unmatch", "--", *paths)


def restore_index(repo: Worktree, rev: str | None, paths: Sequence[str]) -> None:
    """Sets the index entries of ``paths`` back to commit ``rev``'s, best effort.

    None: before the first commit, they leave the index. A failure is left unsaid.
    """
    spec = _nul(paths)
    if rev is None:
        repo.git("rm", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-",
                 "--pathspec-file-nul", input=spec, check=False)
    else:
        repo.git("reset", "-q", rev, "--pathspec-from-file=-", "--pathspec-file-nul",
                 input=spec, check=False)


def checkout_paths(repo: Worktree, rev: str, paths: Sequence[str], *, what: str) -> None:
    """Writes ``paths`` of commit ``rev`` to the index and the work tree (``checkout REV``)."""
    if paths:
        repo.git("checkout", rev, "--pathspec-from-file=-", "--pathspec-file-nul",
                 input=_nul(paths), what=what)


def drop_entries(repo: Worktree, paths: Sequence[str], *, index_file: Path | None = None
                 ) -> None:
    """Removes the entries of ``paths`` from the index (``update-index --force-remove``)."""
    repo.git("update-index", "-z", "--force-remove", "--stdin", index_file=index_file,
             input=_nul(paths))


def read_commit(repo: Worktree, rev: str | None, *, index_file: Path) -> None:
    """Fills ``index_file`` with commit ``rev``'s entries (None: empty; ``read-tree``)."""
    repo.git("read-tree", rev if rev else "--empty", index_file=index_file)


def copy_staged(repo: Worktree, pathspec: Sequence[str], *, index_file: Path) -> None:
    """Copies the repository index's entries under ``pathspec`` into ``index_file``.

    ``index_file``'s own entries there leave first: it then holds the staged change of
    ``pathspec``, and only it.
    """
    old = repo.git("ls-files", "-z", *pathspec, index_file=index_file).stdout
    if old:
        repo.git("update-index", "-z", "--force-remove", "--stdin", index_file=index_file,
                 input=old)
    entries = repo.git("ls-files", "-s", "-z", *pathspec).stdout
    if entries:
        repo.git("update-index", "-z", "--index-info", index_file=index_file, input=entries)
