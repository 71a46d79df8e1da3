"""The repository that holds the context tree, as one small value every vc command uses.

DESIGN.md "Git: two modes, one code path": standalone (a nested repository at
``.brv/context-tree/.git``, ``prefix == ""``) and in-project (the project's own repository
tracks the tree, ``prefix == ".brv/context-tree"``). Commands never branch on the mode; they
ask this value for the pathspec and for path conversions.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from brv_vc.errors import GitError, NotInitializedError, PushRejected
from brv_vc.record import NamedTuple
from brv_vc.tree.project import Project
from brv_vc.vc import git

PROJECT_FILES = ("config.yaml", ".gitignore")
IDENTITY_HINT = (
    'tell git who you are: git config --global user.email "you@example.com" && '
    'git config --global user.name "Your Name"'
)


# git commands that write commits: in standalone mode they borrow the project's identity
_COMMITTING = frozenset({"commit", "merge", "pull", "revert", "cherry-pick", "rebase", "am",
                         "commit-tree", "stash"})


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
        """Runs git in the work tree; failures become GitError with a hint."""
        identity = self.identity_env() if args and args[0] in _COMMITTING else None
        if identity is not None:  # the borrowed identity joins the caller's own variables
            env = {**identity, **(env or {})}
        proc = git.run(list(args), self.workdir, check=False, index_file=index_file,
                       input=input, env=env)
        if check and proc.returncode != 0:
            raise translate(args, proc, what=what)
        return proc

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
                  if f"GIT_AUTHOR_{var}" not in os.environ
                  and f"GIT_COMMITTER_{var}" not in os.environ]
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
        return {**os.environ, **extra} if extra else None

    def git_ok(self, *args: str) -> str | None:
        """The stdout of a git command that may fail (None when it did)."""
        proc = git.run(list(args), self.workdir, check=False)
        return proc.stdout if proc.returncode == 0 else None

    def rev(self, ref: str) -> str | None:
        """The commit id ``ref`` names, or None."""
        out = self.git_ok("rev-parse", "--verify", "--quiet", ref + "^{commit}")
        return out.strip() if out else None

    def head(self) -> str | None:
        """The commit id of HEAD, or None before the first commit."""
        return self.rev("HEAD")

    def branch(self) -> str:
        """The current branch name (``HEAD`` when detached)."""
        out = self.git_ok("symbolic-ref", "--quiet", "--short", "HEAD")
        return out.strip() if out else "HEAD"

    def git_dir(self) -> Path:
        """The repository's git directory (absolute)."""
        out = self.git("rev-parse", "--absolute-git-dir").stdout.strip()
        return Path(out)

    def common_dir(self) -> Path:
        """The git directory shared by all work trees (refs, objects; absolute)."""
        out = self.git("rev-parse", "--path-format=absolute", "--git-common-dir").stdout.strip()
        return Path(out)

    def git_dirs(self) -> tuple[Path, Path]:
        """(:meth:`git_dir`, :meth:`common_dir`) from one ``rev-parse`` (a pull needs both)."""
        out = self.git("rev-parse", "--absolute-git-dir", "--path-format=absolute",
                       "--git-common-dir").stdout.splitlines()
        return Path(out[0]), Path(out[1])

    def whereabouts(self) -> tuple[Path, Path, str | None, str]:
        """(:meth:`git_dir`, :meth:`common_dir`, :meth:`head`, :meth:`branch`), one ``rev-parse``.

        Before the first commit (or if HEAD names no branch) the four are asked one by one.
        In the plain case they are read from the files (:func:`read_whereabouts`).
        """
        read = read_whereabouts(self.workdir)
        if read is not None:
            return read
        proc = git.run(["rev-parse", "--absolute-git-dir", "--path-format=absolute",
                        "--git-common-dir", "HEAD^{commit}", "--symbolic-full-name", "HEAD"],
                       self.workdir, check=False)
        lines = proc.stdout.splitlines()
        if proc.returncode == 0 and len(lines) == 4 and (
                lines[3] == "HEAD" or lines[3].startswith("refs/heads/")):
            return Path(lines[0]), Path(lines[1]), lines[2], lines[3].removeprefix("refs/heads/")
        git_dir, common = self.git_dirs()
        return git_dir, common, self.head(), self.branch()

    def merging(self, git_dir: Path | None = None) -> bool:
        """True while a merge waits for ``merge --continue`` or ``--abort``."""
        return ((git_dir or self.git_dir()) / "MERGE_HEAD").exists()


def _identity(folder: Path, *scope: str) -> dict[str, str]:
    """``user.name`` and ``user.email`` as git resolves them in ``folder`` (one process).

    The last value of each wins, as for ``git config --get``; empty values are left out.
    """
    out = git.run(["config", *scope, "-z", "--get-regexp", r"^user\.(name|email)$"], folder,
                  check=False).stdout
    found: dict[str, str] = {}
    for item in out.split("\0"):
        key, _, value = item.partition("\n")
        if key.startswith("user.") and value.strip():
            found[key[len("user."):]] = value.strip()
    return found


_NOT_PLAIN = "\ufeff\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"


def _local_identity(workdir: Path) -> dict[str, str] | None:
    """:func:`_identity` of the repository's own config file, read without a git process.

    Trigger: every standalone commit asks whether the nested repository names its own
    identity. Why: a git process for a file brv reads anyway (``configure.register_drivers``).
    Outcome: the ``[user]`` values when the file is plain ``key = value`` lines; None (git
    reads it) for anything this does not follow: a ``.git`` file (a worktree), an include,
    quotes, escapes, continued lines, a comment or key on a section line.
    """
    try:
        text = (workdir / ".git" / "config").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # git reads a byte-order mark as nothing and these as plain characters (not line ends,
    # nor, but \v and \f, whitespace): such a file is git's to read
    if "include" in text.lower() or any(c in text for c in _NOT_PLAIN):
        return None
    found: dict[str, str] = {}
    section = None
    for raw in text.split("\n"):
        line = raw.strip()
        if line.endswith("\\"):
            return None
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            if not line.endswith("]"):
                return None
            section = line[1:-1].strip().lower()
            continue
        key, _, value = line.partition("=")
        if section != "user" or key.strip().lower() not in ("name", "email"):
            continue
        if any(c in value for c in '"\\;#'):
            return None
        if value.strip():  # the last non-empty value wins, as in _identity
            found[key.strip().lower()] = value.strip()
    return found


_LOCK_HELD = r"Unable to create '([^']+\.lock)': File exists"  # compiled when a git run fails


_TRANSPORT_RISKS = {"fd": "it reads and writes the brv process's own file descriptors, and "
                          "can hang", "ext": "it runs a command the URL names"}


def transport_refusal(name: str, label: str, *, stored: bool = True) -> GitError:
    """The refusal of a URL that names git's ``name::`` transport (``git.REFUSED_TRANSPORTS``).

    ``stored``: the URL is a remote's already (a push, a fetch), else one being given.
    """
    whose = "the remote's URL uses" if stored else "the URL uses"
    return GitError(
        f"{label} refused: {whose} git's '{name}::' transport, which brv never runs ("
        + _TRANSPORT_RISKS.get(name, "git's protocol.allow forbids it") + ")",
        hint=("point the remote at a URL (ssh, https, a path): brv vc remote set-url NAME URL"
              if stored else "give a URL (ssh, https, a path)")
        + "; for this transport, use plain git")


def refuse_transport(url: str, label: str) -> None:
    """Refuses a URL being given (remote add, set-url, clone) that names a refused transport.

    Raises:
        GitError: it does (nothing is stored or run).
    """
    name = git.refused_transport(url)
    if name is not None:
        raise transport_refusal(name, label, stored=False)


def translate(
    args: tuple[str, ...] | list[str], proc: git.Proc | git.Completed, *,
    what: str | None = None,
) -> GitError:
    """Turns a failed git run into a GitError that says what to do next."""
    words = "\n".join(x for x in (proc.stderr.strip(), proc.stdout.strip()) if x)
    kind = git.failure_kind(words)
    label = what or f"git {' '.join(args[:2])}"
    held = re.search(_LOCK_HELD, words)
    if held:
        name = os.path.basename(held.group(1))
        return GitError(f"{label} failed: git's {name} is held (another git process, a brv "
                        "write in progress, or one that was killed)\n" + words,
                        hint="if no other git runs here, run 'brv vc recover' (it removes a "
                             "stale lock only), then try again")
    refused = re.search(r"transport '([\w+-]+)' not allowed", words)
    if refused:
        return transport_refusal(refused.group(1), label)
    if kind == "identity":
        return GitError(f"{label} failed: git does not know who you are (user.name/user.email "
                        "are not set)", hint=IDENTITY_HINT)
    if kind == "network":
        return GitError(f"{label} failed: the remote cannot be reached\n{words}",
                        hint="check the URL ('brv vc remote'), your network and your git "
                             "credentials, then try again")
    if kind == "rejected":
        return PushRejected(f"{label} was rejected: the remote has commits you do not have",
                        hint="pull first ('brv vc pull'), then push again; nothing was lost")
    return GitError(f"{label} failed: {words}")


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


def plain_top(start: Path) -> Path | None:
    """The work tree git finds from ``start``, read from the files when nothing can differ.

    Trigger: every in-project vc command locates its repository (``brv vc status`` is
    budgeted against ``git status`` itself). Why: ``git rev-parse --show-toplevel`` costs a
    process (~2 ms of CPU) to say what the nearest ``.git`` folder says in the plain case.
    Outcome: the nearest folder at or above ``start`` holding a ``.git`` folder with a
    ``HEAD``, ``objects`` and ``refs``, both owned by this user (git's safe.directory check),
    on ``start``'s file system (git stops at a mount), whose config names no ``worktree``, no
    ``include`` and no ``bare`` other than ``bare = false``, with no
    ``GIT_CEILING_DIRECTORIES``. None for anything else (a linked worktree's or a
    submodule's ``.git`` file, a moved work tree...): ask git.
    """
    euid = getattr(os, "geteuid", None)
    if euid is None or os.environ.get("GIT_CEILING_DIRECTORIES"):
        return None
    try:
        folder = Path(os.path.realpath(start))
        device = os.stat(folder).st_dev
        for candidate in (folder, *folder.parents):
            here = os.stat(candidate)
            if here.st_dev != device:
                return None
            dot = candidate / ".git"
            try:
                found = os.lstat(dot)
            except FileNotFoundError:
                continue
            if not _plain_git_dir(dot, found, here, euid()):
                return None
            return candidate
    except (OSError, UnicodeDecodeError):
        return None
    return None


def read_whereabouts(workdir: Path) -> tuple[Path, Path, str, str] | None:
    """:meth:`KnowledgeRepo.whereabouts` read from the files, when nothing can differ.

    Trigger: every ``vc commit``, ``pull`` and ``merge``. Why: the ``git rev-parse`` they
    asked (~1.3 ms of CPU; ~2.3 in a pull, whose tip is packed) says what ``.git/HEAD`` and
    the branch's ref say in the plain case. Outcome: the git dir (resolved, as
    ``--absolute-git-dir``) is also the common dir; HEAD names a branch whose ref is a
    loose file or a ``packed-refs`` line holding one object id (git writes only commits to
    branches), or HEAD holds the id itself (detached: branch ``HEAD``). None (git answers)
    for anything else: a ``.git`` file (a linked worktree, a submodule), a folder
    :func:`_plain_git_dir` would not take, reftable, a branch not born yet, a symbolic ref.
    """
    dot = workdir / ".git"
    euid = getattr(os, "geteuid", None)
    try:
        found = os.lstat(dot)
        if euid is None or not _plain_git_dir(dot, found, os.stat(workdir), euid()):
            return None
        if "refstorage" in (dot / "config").read_text(encoding="utf-8").lower():
            return None
        if os.path.islink(dot / "HEAD"):  # core.preferSymlinkRefs: a branch, read as an id
            return None
        head = (dot / "HEAD").read_text(encoding="utf-8")
        git_dir = Path(os.path.realpath(dot))
        if git.object_id(head.rstrip("\n")):
            return git_dir, git_dir, head.rstrip("\n"), "HEAD"
        if not head.startswith("ref: refs/heads/") or not head.endswith("\n"):
            return None
        branch = head[len("ref: refs/heads/"):-1]
    except (OSError, UnicodeDecodeError):
        return None
    value = read_ref(dot, f"refs/heads/{branch}")
    return (git_dir, git_dir, value, branch) if value else None


def read_ref(git_dir: Path, ref: str) -> str | None:
    """The object id a full ref name (``refs/remotes/origin/main``) holds, read from the files.

    For a plain repository (:func:`read_whereabouts` answered): the loose file, else its
    ``packed-refs`` line. None when neither holds one: git then says whether it exists.
    """
    try:
        value = (git_dir / ref).read_text(encoding="utf-8").rstrip("\n")
    except FileNotFoundError:
        value = _packed(git_dir, ref) or ""
    except (OSError, UnicodeDecodeError):
        return None
    return value if git.object_id(value) else None


def _packed(dot: Path, ref: str) -> str | None:
    """The object id ``packed-refs`` gives ``ref``, or None."""
    try:
        text = (dot / "packed-refs").read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    for line in text.split("\n"):
        sha, _, name = line.partition(" ")
        if name == ref:
            return sha
    return None


def _plain_git_dir(dot: Path, found: os.stat_result, top: os.stat_result, euid: int) -> bool:
    """True when ``dot`` is a ``.git`` folder whose work tree is plainly its parent."""
    import stat

    if not stat.S_ISDIR(found.st_mode) or found.st_uid != euid or top.st_uid != euid:
        return False
    if not ((dot / "HEAD").is_file() and (dot / "objects").is_dir() and (dot / "refs").is_dir()):
        return False  # not a repository to git (setup.c is_git_directory): it looks further up
    config = (dot / "config").read_text(encoding="utf-8").lower()
    if "worktree" in config or "include" in config:
        return False
    return all(line.split() == ["bare", "=", "false"]
               for line in config.splitlines() if line.strip().startswith("bare"))


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
            proc = git.run(["rev-parse", "--show-toplevel"], start, check=False)
            top = proc.stdout.strip()
            found = of_tree(project, Path(top) if proc.returncode == 0 and top else None)
    if found is not None:
        return found
    raise NotInitializedError(
        "the context tree is not under version control",
        hint="run 'brv vc init' (own repository) or 'brv vc init --in-project' (track it in "
             "the project's repository), or 'brv vc clone URL'",
    )
