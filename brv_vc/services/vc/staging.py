"""``brv vc add``: stage knowledge files named tree-, folder- or repository-relative.

The result says what was staged, resolved or already unchanged.
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc.errors import GitError, InvalidPathError, NotFoundError
from brv_vc.record import NamedTuple
from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.links import first_link, odd_files
from brv_vc.vc import git
from brv_vc.vc.git import stage
from brv_vc.vc.git.symlinks import LINK_MODE
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:  # annotations only: vc add imports no collections.abc
    from collections.abc import Callable


class MarkerHit(NamedTuple):
    """A staged file that still holds conflict markers, and the line of the first one."""

    path: str
    line: int


class AddResult(NamedTuple):
    """What ``brv vc add`` did.

    How many files are staged now, which named files had nothing to stage, and which
    conflicts the add marked resolved; files staged with conflict markers still in them are
    listed in ``still_conflicted`` (``merge --continue`` and ``commit`` refuse them).
    A NamedTuple, not a dataclass: importing dataclasses (with inspect) cost ~10 ms of
    CPU in every ``brv vc add``, for these two records.
    """

    staged: int
    paths: tuple[str, ...]
    unchanged: tuple[str, ...] = ()
    resolved: tuple[str, ...] = ()
    still_conflicted: tuple[MarkerHit, ...] = ()  # staged with conflict markers left in


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def _tracked(repo: KnowledgeRepo, tree_rel: str) -> bool:
    return stage.in_index(repo, repo.repo_path(tree_rel))


def tree_relpath(repo: KnowledgeRepo, path: str, cwd: Path | None = None) -> str:
    """The tree-relative form of a path the user typed ("" is the whole tree).

    Accepted: a tree-relative path; a repository-relative one in in-project mode (what
    ``git status`` prints, ``.brv/context-tree/auth/x.md``); a path relative to ``cwd``
    (or absolute) that lands inside the tree. From inside the tree a path is first read
    relative to ``cwd`` (as git does) and falls back to tree-relative when only that exists.

    Raises:
        InvalidPathError: a path that escapes the tree.
    """
    posix = path.replace(os.sep, "/")
    if repo.prefix and (posix == repo.prefix or posix.startswith(repo.prefix + "/")):
        posix = posix[len(repo.prefix) + 1:]
    elif cwd is not None:
        tree = repo.tree.resolve()
        # lexical first: resolving would follow a symlink inside the tree and stage its
        # target under another name; the link itself is refused by _refuse_links
        candidate = Path(os.path.normpath(cwd.resolve() / path))
        if not _inside(candidate, tree):
            candidate = (cwd / path).resolve()
        if _inside(candidate, tree):
            rel = candidate.relative_to(tree).as_posix()
            rel = "" if rel == "." else rel
            plain = posix.strip("/")
            if (candidate.exists() or not rel or _tracked(repo, rel)
                    or not (repo.tree / plain).exists()):
                return rel
    posix = posix.strip("/")
    return "" if posix in ("", ".") else clean_relpath(posix)


def names_knowledge(repo: KnowledgeRepo, path: str, cwd: Path | None = None) -> bool:
    """True when ``path`` names a knowledge file or folder: on disk, staged or in HEAD.

    ``brv vc reset ARG`` asks this to tell a path (unstage it) from a commit (move the
    branch), as git does; a path that escapes the tree names no knowledge.
    """
    try:
        rel = tree_relpath(repo, path, cwd)
    except InvalidPathError:
        return False
    if not rel or (repo.tree / rel).exists():
        return True
    return stage.in_index(repo, repo.repo_path(rel), or_head=repo.head() is not None)


def project_files_to_stage(repo: KnowledgeRepo) -> list[str]:
    """The project files (:meth:`KnowledgeRepo.project_files`) a whole-tree add stages.

    Those present or tracked (a deletion is staged too), and not ignored: a team that
    keeps ``.brv/config.yaml`` per machine lists it in the project's ``.gitignore``.
    """
    files = [p for p in repo.project_files()
             if (repo.workdir / p).exists() or stage.in_index(repo, p)]
    if not files:
        return []
    skip = git.ignored_paths(repo.workdir, files)
    return [p for p in files if p not in skip]



def repo_paths(repo: KnowledgeRepo, paths: tuple[str, ...], cwd: Path | None = None
                ) -> list[str]:
    """The repository-relative pathspec for user paths.

    None means the whole tree, plus (in-project mode) brv's project files.
    """
    if not paths:
        return [repo.prefix or ".", *project_files_to_stage(repo)]
    rels = [tree_relpath(repo, p, cwd) for p in paths]
    return [repo.repo_path(r) if r else (repo.prefix or ".") for r in rels]


def _unmerged(repo: KnowledgeRepo) -> set[str]:
    """The unmerged paths of the index (``ls-files -u``), repository-relative.

    Trigger: every ``vc add``. Why: an index whose cache-tree names a tree covering every
    entry has none (git builds no tree with an unmerged path, and staging one invalidates
    the tree along it), and the usual add, after a commit or a pull, finds one: ~5 ms of git
    CPU at 25,000 entries (a process reading the whole index) saved. Outcome: any doubt (no
    or a partly invalidated cache-tree, a worktree's ``.git`` file, a split index) asks git.
    """
    from brv_vc.vc.git.cache_tree import committed_tree

    if committed_tree(str(repo.workdir / ".git" / "index")) is not None:
        return set()
    return stage.unmerged(repo)


def add(repo: KnowledgeRepo, paths: tuple[str, ...] = (), cwd: Path | None = None
        ) -> AddResult:
    """Stages knowledge files (new, changed and deleted); the default is the whole tree.

    Under the project's write lock: a brv writer holds git's index.lock for a moment
    (vc/git_index_lock.py), and the add waits for it rather than fail on it.

    Args:
        repo: the knowledge repository.
        paths: what to stage (see :func:`tree_relpath` for the accepted forms).
        cwd: the folder the user ran the command in (for relative paths).

    Raises:
        InvalidPathError: a path outside the tree.
        NotFoundError: a path that matches no file.
        GitError: git refused (e.g. an excluded path named explicitly).
    """
    from brv_vc.services.vc.gating import project_of
    from brv_vc.tree import writelock

    with writelock.hold(project_of(repo)):
        return _add(repo, paths, cwd)


def _add(repo: KnowledgeRepo, paths: tuple[str, ...], cwd: Path | None) -> AddResult:
    targets = repo_paths(repo, paths, cwd)
    conflicted = _unmerged(repo)
    with _IndexKept(repo) as restore:
        _refuse_links(repo, targets, walk=restore is None)
        proc = stage.stage_all(repo, targets)
        if proc.returncode != 0:
            _refuse_links(repo, targets)  # git refuses special files: name them as brv does
        else:
            entries = git.staged_entries(repo.workdir, None, repo.commit_pathspec())
            links = [rel for status, p, _, mode in entries if status != "D"
                     and mode == LINK_MODE and (rel := repo.tree_path(p)) is not None]
            if links and restore is not None:  # staged (now or before): refused, none kept
                restore()
                raise _odd_files_error(links)
    if proc.returncode != 0:
        if "ignored by one of your .gitignore" in proc.stderr:
            raise GitError(
                "refusing to stage a sync-excluded file: " + ", ".join(paths),
                hint="derived files (_index.md, *.abstract.md, _archived/...) are rebuilt on "
                     "every clone and never synced",
            )
        if "did not match any files" in proc.stderr:
            raise NotFoundError(f"no knowledge file matches {', '.join(paths)}",
                                hint="see the changed files with 'brv vc status'")
        raise GitError(f"git add failed: {proc.stderr.strip()}")
    staged_repo = [p for _, p, _, _ in entries]
    staged = [repo.tree_path(x) or x for x in staged_repo]
    # what is still unmerged: the listing of the staged change has it (rows U), so the index
    # is read once after the add; nothing was unmerged before (the usual case): none left
    left = {p for status, p, _, _ in entries if status == "U"
            and repo.tree_path(p) is not None} if conflicted else set()
    resolved = sorted(p for p in (repo.tree_path(x) for x in conflicted - left) if p)
    unchanged: list[str] = []
    if paths:
        for target in targets:
            base = target.rstrip("/") + "/"
            if target in (".", repo.prefix):
                base = "" if target == "." else base
            hit = any(p == target or p.startswith(base) for p in staged_repo)
            was = any(p == target or p.startswith(base) for p in conflicted)
            if not hit and not was:
                unchanged.append(repo.tree_path(target) or target)
    named = {rel for t in targets if (rel := repo.tree_path(t))} & set(staged)
    marked = _with_markers(repo, [*resolved, *sorted(named - set(resolved))])
    return AddResult(len(staged), tuple(staged), tuple(unchanged), tuple(resolved), marked)


def _refuse_links(repo: KnowledgeRepo, targets: list[str], *, walk: bool = True) -> None:
    """Refuses to stage a symlink or special file inside the tree (nothing is staged).

    Trigger: ``vc add`` of a file, a folder or the whole tree. Why: brv never reads or
    writes through a link (tree/links.py) and a committed link reaches every clone.
    Outcome: a named path with a symlinked folder on the way is refused on its own (git's
    "beyond a symbolic link" names no fix); links inside the named folders are listed.
    ``walk=False`` checks the named paths only: ``add`` finds the links inside folders from
    the modes 'git add' staged (a walk of the tree cost ~20 ms at 25,000 entries, ~85 ms at
    100,000), and walks only when git refused (a special file).
    """
    found: list[str] = []
    for target in targets:
        rel = repo.tree_path(target) if target != "." else ""
        if rel is None:
            continue
        link = first_link(repo.tree, rel)
        if link is not None and link != rel:
            raise InvalidPathError(
                f"refusing to stage {rel}: it goes through the symlink {link} (brv never "
                "reads or writes through a link); nothing was staged",
                file=rel,
                hint="replace the link with the real folder, or remove it (rm "
                     f".brv/context-tree/{link}), then 'brv vc add' again",
            )
        where = repo.tree / rel if rel else repo.tree
        if link is not None:
            found.append(rel)
        elif walk and where.is_dir():
            found += [f"{rel}/{p}" if rel else p for p, _ in odd_files(where)]
    if found:
        raise _odd_files_error(found)


def _odd_files_error(found: list[str]) -> InvalidPathError:
    shown = ", ".join(sorted(set(found))[:5]) + (" ..." if len(set(found)) > 5 else "")
    return InvalidPathError(
        f"refusing to stage {shown}: a symlink or special file in the context tree "
        "(brv never reads or writes through a link); nothing was staged",
        file=sorted(found)[0],
        hint="replace it with the real file, or remove it (rm .brv/context-tree/"
             f"{sorted(found)[0]}), then 'brv vc add' again",
    )


class _IndexKept:  # a class, not @contextmanager: vc add does not import contextlib (~0.5 ms)
    """Keeps the index as it was, for the ``restore()`` it yields (a hard link, O(1)).

    git replaces the index by renaming ``index.lock`` over it, so a second name for the
    old file keeps its bytes. None where that cannot be had (no index yet, a worktree's or
    submodule's ``.git`` file, links refused): the caller then walks the tree first.
    """

    def __init__(self, repo: KnowledgeRepo) -> None:
        self.index = repo.workdir / ".git" / "index"
        self.kept = self.index.with_name(f"index.brv-add-{os.getpid()}")
        self.linked = False

    def __enter__(self) -> Callable[[], None] | None:
        try:
            os.link(self.index, self.kept)
        except OSError:
            return None
        self.linked = True
        return self.restore

    def restore(self) -> None:
        os.replace(self.kept, self.index)

    def __exit__(self, *exc: object) -> None:
        if self.linked:
            try:  # noqa: SIM105 - restore() moved it back already
                self.kept.unlink()
            except OSError:
                pass


def _with_markers(repo: KnowledgeRepo, paths: list[str]) -> tuple[MarkerHit, ...]:
    """The files among ``paths`` (tree-relative) whose text still holds conflict markers.

    Trigger: ``vc add`` of a conflict resolution or of a named file. Why: git marks a
    conflict resolved on any add, markers or not, and only ``merge --continue``/``commit``
    would refuse later. Outcome: the caller warns now, naming the line. Only these few
    files are read, never the whole staged set.
    """
    if not paths:
        return ()  # a plain 'vc add' names no file: vc.status is not imported (~0.3 ms)
    from brv_vc.format.conflicts import conflict_line_in

    hits: list[MarkerHit] = []
    for path in paths:
        try:
            data = (repo.tree / path).read_bytes()
        except OSError:  # a staged deletion, or a folder
            continue
        line = conflict_line_in(data)
        if line is not None:
            hits.append(MarkerHit(path, line))
    return tuple(hits)


__all__ = ["AddResult", "MarkerHit", "add", "names_knowledge", "repo_paths", "tree_relpath"]
