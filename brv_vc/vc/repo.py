"""The repository that holds the context tree, as one small value every vc command uses.

DESIGN.md "Git: two modes, one code path": standalone (a nested repository at
``.brv/context-tree/.git``, ``prefix == ""``) and in-project (the project's own repository
tracks the tree, ``prefix == ".brv/context-tree"``). Commands never branch on the mode; they
ask this value for the pathspec and for path conversions.
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc import environment
from brv_vc.errors import GitError, NotInitializedError
from brv_vc.record import NamedTuple
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git.errors import IDENTITY_HINT as IDENTITY_HINT
from brv_vc.vc.git.errors import refuse_transport as refuse_transport
from brv_vc.vc.git.errors import translate as translate
from brv_vc.vc.git.errors import transport_refusal as transport_refusal
from brv_vc.vc.git.files import _local_identity
from brv_vc.vc.git.files import plain_top as plain_top
from brv_vc.vc.git.files import read_ref as read_ref
from brv_vc.vc.git.files import read_whereabouts as read_whereabouts

PROJECT_FILES = ("config.yaml", ".gitignore")
# git's state folders of a rebase under way (the merge backend's, the apply backend's)
REBASE_DIRS = ("rebase-merge", "rebase-apply")


class KnowledgeRepo(NamedTuple):
    """``workdir`` is the git work tree; ``prefix`` the tree's POSIX path inside it.

    A NamedTuple, not a dataclass: ``brv vc status`` and the hooks would import dataclasses
    (with inspect, ~15 ms of CPU) for this one value.
    """

    workdir: Path
    prefix: str

    @property
    def in_project(self) -> bool:
        """True when the project's own repository tracks the tree."""
        return bool(self.prefix)

    @property
    def tree(self) -> Path:
        """The context tree folder."""
        return self.workdir / self.prefix if self.prefix else self.workdir

    def pathspec(self) -> list[str]:
        """``-- <prefix>`` limits any git command to knowledge (``.`` in standalone mode)."""
        return ["--", self.prefix or "."]

    def project_files(self) -> list[str]:
        """The project files of brv committed with the tree (in-project mode only).

        ``.brv/config.yaml`` (team settings: budgets, the provider's URL and the NAME of its
        key variable, never a key) and ``.brv/.gitignore``, repository-relative. Standalone
        mode has none: they live outside the nested repository.
        """
        if not self.prefix:
            return []
        brv = self.prefix.rpartition("/")[0]
        return [f"{brv}/{name}" if brv else name for name in PROJECT_FILES]

    def commit_pathspec(self) -> list[str]:
        """:meth:`pathspec` plus :meth:`project_files`: what ``vc add``/``commit`` may touch."""
        return [*self.pathspec(), *self.project_files()]

    def repo_path(self, tree_rel: str) -> str:
        """Tree-relative path -> repository-relative path."""
        return f"{self.prefix}/{tree_rel}" if self.prefix else tree_rel

    def tree_path(self, repo_rel: str) -> str | None:
        """Repository-relative path -> tree-relative path (None: outside the tree)."""
        if not self.prefix:
            return repo_rel
        head = self.prefix + "/"
        return repo_rel[len(head):] if repo_rel.startswith(head) else None

    def git(
        self, *args: str, check: bool = True, index_file: Path | None = None,
        what: str | None = None, input: str | None = None, env: dict[str, str] | None = None,
    ) -> git.Proc:
        """Runs git in the work tree: ``vc/git/worktree.in_worktree``, for the git package.

        A committing command borrows :meth:`identity_env`; with ``check``, a failure raises
        GitError with a hint. Only ``vc/git/`` calls it (tests/test_layering.py).
        """
        return git.in_worktree(self, args, check=check, index_file=index_file, what=what,
                               input=input, env=env)

    def identity_env(self) -> dict[str, str] | None:
        """The environment for a commit: the project repository's identity, when borrowed.

        Trigger: standalone mode, whose nested repository sets no ``user.name``/``user.email``
        of its own. Why: git would fall back to the global identity, while the project's
        repository may set another (a work address); knowledge commits should carry the same
        author as the code. Outcome: ``GIT_AUTHOR_*``/``GIT_COMMITTER_*`` from the project's
        ``git config`` (what git resolves there: local, includeIf, global), unless the caller's
        environment sets them already; None when nothing is borrowed.
        """
        if self.in_project:
            return None
        # the caller chose when it set a variable; no git process needed to know it

        wanted = [(key, var) for key, var in (("name", "NAME"), ("email", "EMAIL"))
                  if not environment.is_set(f"GIT_AUTHOR_{var}")
                  and not environment.is_set(f"GIT_COMMITTER_{var}")]
        if wanted:
            own = _local_identity(self.workdir)
            if own is None:
                own = _identity(self.workdir, "--local")
            wanted = [(key, var) for key, var in wanted if not own.get(key)]
        if not wanted:
            return None
        theirs = _identity(self.workdir.parent.parent)  # <project>/.brv/context-tree
        extra: dict[str, str] = {}
        for key, var in wanted:
            if theirs.get(key):
                extra[f"GIT_AUTHOR_{var}"] = extra[f"GIT_COMMITTER_{var}"] = theirs[key]
        return environment.child(extra) if extra else None

    def git_ok(self, *args: str) -> str | None:
        """The stdout of a git command that may fail (None when it did): for ``vc/git/``."""
        return git.ok_in_worktree(self, args)

    def rev(self, ref: str) -> str | None:
        """The commit id ``ref`` names, or None."""
        return git.commit_of(self.workdir, ref)

    def head(self) -> str | None:
        """The commit id of HEAD, or None before the first commit."""
        return self.rev("HEAD")

    def branch(self) -> str:
        """The current branch name (``HEAD`` when detached)."""
        return git.branch_name(self.workdir)

    def git_dir(self) -> Path:
        """The repository's git directory (absolute)."""
        return self.git_dirs()[0]

    def git_dirs(self) -> tuple[Path, Path]:
        """(:meth:`git_dir`, the git directory all work trees share), by one ``rev-parse``."""
        return git.git_dirs(self.workdir)

    def whereabouts(self) -> tuple[Path, Path, str | None, str]:
        """(:meth:`git_dirs`' two, :meth:`head`, :meth:`branch`), one ``rev-parse``.

        Before the first commit (or if HEAD names no branch) the four are asked one by one.
        In the plain case they are read from the files (:func:`read_whereabouts`).
        """
        read = read_whereabouts(self.workdir)
        if read is not None:
            return read
        asked = git.whereabouts(self.workdir)
        if asked is not None:
            return asked
        git_dir, common = self.git_dirs()
        return git_dir, common, self.head(), self.branch()

    def merging(self, git_dir: Path | None = None) -> bool:
        """True while a merge waits for ``merge --continue`` or ``--abort``."""
        return ((git_dir or self.git_dir()) / "MERGE_HEAD").exists()

    def rebasing(self, git_dir: Path | None = None) -> bool:
        """True while a rebase is under way: its state folder (:data:`REBASE_DIRS`) is there."""
        where = git_dir or self.git_dir()
        return any((where / name).exists() for name in REBASE_DIRS)

    def replaying(self, git_dir: Path | None = None) -> bool:
        """True while a rebase has commits left to replay: its post-rewrite is still to come.

        A rebase with none (a fast-forward) rewrites nothing and git runs no post-rewrite, yet
        its checkout of the new base sees the merge backend's state folder, its todo empty
        (git 2.39). A todo that cannot be read counts as holding commits.
        """
        where = git_dir or self.git_dir()
        if (where / REBASE_DIRS[1]).exists():
            return True
        try:
            todo = (where / REBASE_DIRS[0] / "git-rebase-todo").read_text(
                encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return (where / REBASE_DIRS[0]).exists()
        except OSError:
            return True
        return any(line.split()[0] != "noop" for line in todo.splitlines()
                   if line.strip() and not line.lstrip().startswith("#"))

    def autostash(self, git_dir: Path | None = None) -> str | None:
        """The stash git applies when its merge or rebase ends, from its file (None: none)."""
        where = git_dir or self.git_dir()
        for name in ("MERGE_AUTOSTASH", *(f"{d}/autostash" for d in REBASE_DIRS)):
            try:
                stash = (where / name).read_text(encoding="utf-8").strip()
            except OSError:
                continue
            if stash:
                return stash
        return None

    def autostash_deletions(self, stash: str) -> frozenset[str]:
        """The repository paths ``stash`` (:meth:`autostash`'s) deletes.

        One ``git diff`` of the stash against the commit it was taken on (its first parent).
        A stash git cannot read deletes nothing.
        """
        try:
            return frozenset(git.changed_between(self.workdir, f"{stash}^1", stash,
                                                 diff_filter="D"))
        except GitError:
            return frozenset()


def _identity(folder: Path, *scope: str) -> dict[str, str]:
    """``user.name`` and ``user.email`` as git resolves them in ``folder`` (one process).

    The last value of each wins, as for ``git config --get``; empty values are left out.
    """
    return {key[len("user."):]: value.strip() for key, value
            in git.config_values(folder, r"^user\.(name|email)$", *scope)
            if key.startswith("user.") and value.strip()}


def of_tree(project: Project, top: Path | None) -> KnowledgeRepo | None:
    """The repository holding the tree, the work tree around it being ``top`` (None: none).

    The one rule of the two modes, read from the files alone: a ``.git`` in the tree is its
    own repository (standalone); else the tree's ``.gitattributes`` (written by ``brv vc init
    --in-project``) says the repository at ``top`` tracks it. None: the tree is unversioned.
    """
    tree = project.tree
    if (tree / ".git").exists():
        return KnowledgeRepo(tree, "")
    if top is not None and (tree / ".gitattributes").is_file():
        root = top.resolve()
        prefix = Path(os.path.relpath(tree.resolve(), root)).as_posix()
        if not prefix.startswith(".."):
            return KnowledgeRepo(root, prefix)
    return None


def locate(project: Project) -> KnowledgeRepo:
    """Finds the repository holding the project's tree.

    Raises:
        NotInitializedError: the tree is not under version control yet.
    """
    tree = project.tree
    found = of_tree(project, None)  # standalone: no git process to know it
    if found is None:
        start = tree if tree.is_dir() else project.root
        walked = plain_top(start)
        if walked is not None:  # in-project, the plain case: no git process either
            found = of_tree(project, walked)
        else:
            found = of_tree(project, git.toplevel(start))
    if found is not None:
        return found
    raise NotInitializedError(
        "the context tree is not under version control",
        hint="run 'brv vc init' (own repository) or 'brv vc init --in-project' (track it in "
             "the project's repository), or 'brv vc clone URL'",
    )
