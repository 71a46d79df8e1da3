"""git's own files read without a git process, when nothing can differ from git's answer.

Each reader answers only the plain case (a ``.git`` folder, loose or packed refs, a config of
plain lines) and gives None for anything else: the caller then asks git. Trigger: the vc
commands and the hooks, budgeted against git itself (DESIGN.md), where a ``git rev-parse``
or ``git config`` would cost a process to say what a file says.
"""

from __future__ import annotations

import os
from pathlib import Path


def object_id(text: str) -> bool:
    """True for a full object id as git writes it (SHA-1 or SHA-256, lower-case hex)."""
    return len(text) in (40, 64) and not text.strip("0123456789abcdef")


def loose_head(git_dir: Path, common_dir: Path, branch: str) -> str | None:
    """The commit HEAD names, read from its loose ref file; None when git must be asked.

    ``branch``: the branch HEAD is on ("HEAD" when detached), as ``rev-parse
    --symbolic-full-name HEAD`` named it. Right after git wrote the ref (``vc commit``), the
    file holds it: the files backend writes every updated ref loose. None for anything else
    (a packed ref, reftable's placeholder files, a file that is not one object id).
    """
    where = git_dir / "HEAD" if branch == "HEAD" else common_dir / "refs" / "heads" / branch
    try:
        # bytes decoded, not read_text(encoding="ascii"): a text file would import the
        # encodings.ascii codec (~0.3 ms of every commit and pull)
        value = where.read_bytes().decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return value if object_id(value) else None


_NOT_PLAIN = "\ufeff\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"


def _local_identity(workdir: Path) -> dict[str, str] | None:
    """:func:`brv_vc.vc.repo._identity` of the repository's own config file, read without a git process.

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
        if value.strip():  # the last non-empty value wins, as in repo._identity
            found[key.strip().lower()] = value.strip()
    return found


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
    from brv_vc import environment

    if euid is None or environment.get(environment.CEILING):
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
        if object_id(head.rstrip("\n")):
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
    return value if object_id(value) else None


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
