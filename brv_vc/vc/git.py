"""The only module that talks to git (the binary, GitPython or dulwich).

Every git failure becomes a :class:`GitError` carrying the command and git's own words.
Hooks run with ``GIT_DIR``/``GIT_INDEX_FILE`` exported; :func:`no_git_env` strips them so
a git call made from inside a hook acts on the repository we name, not the one git set.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from brv_vc.errors import GitError

_HOOK_VARS = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_PREFIX", "GIT_OBJECT_DIRECTORY",
              "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR")


def no_git_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """Returns the environment without the variables git exports to hooks."""
    env = dict(os.environ if base is None else base)
    for name in _HOOK_VARS:
        env.pop(name, None)
    env.setdefault("GIT_TERMINAL_PROMPT", "0")
    return env


def run(
    args: Sequence[str],
    cwd: Path,
    *,
    check: bool = True,
    input: str | None = None,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Runs ``git <args>`` in ``cwd`` and returns the completed process.

    Raises:
        GitError: git is missing, or (with ``check``) exited non-zero.
    """
    try:
        proc = subprocess.run(
            ["git", *args],
            cwd=cwd,
            input=input,
            capture_output=True,
            text=True,
            env=no_git_env(env),
            check=False,
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None
    if check and proc.returncode != 0:
        words = (proc.stderr or proc.stdout).strip()
        raise GitError(f"git {' '.join(args[:2])} failed: {words}")
    return proc


# --- git hooks (issue #6): where hooks live and what a commit, merge or checkout changed ---
# Kept in one group; they run git with bytes I/O (blobs are bytes) and, for the pre-commit
# check, with the index file git handed to the hook (``git commit -a``/``git commit PATHS``
# stage into a temporary index exported as GIT_INDEX_FILE: that is what will be committed).

NULL_SHA = "0" * 40


def _git_bytes(
    args: Sequence[str],
    cwd: Path,
    *,
    input: bytes | None = None,
    index_file: str | None = None,
    ok: tuple[int, ...] = (0,),
) -> bytes:
    env = no_git_env()
    if index_file:
        env["GIT_INDEX_FILE"] = index_file
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, input=input, capture_output=True, env=env, check=False
        )
    except FileNotFoundError:
        raise GitError(
            "git is not installed or not on PATH", hint="install git (https://git-scm.com)"
        ) from None
    if proc.returncode not in ok:
        words = proc.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args[:2])} failed: {words}")
    return proc.stdout


def toplevel(start: Path) -> Path | None:
    """Returns the top folder of the work tree holding ``start``, or None outside git."""
    proc = run(["rev-parse", "--show-toplevel"], start, check=False)
    out = proc.stdout.strip()
    return Path(out).resolve() if proc.returncode == 0 and out else None


def git_path(repo: Path, name: str) -> Path:
    """Returns ``git rev-parse --git-path NAME`` as an absolute path.

    It honours ``core.hooksPath`` (for ``hooks``) and linked worktrees (``hooks`` lives in the
    common git dir, ``rebase-merge`` in the worktree's own). A relative answer is relative to
    ``repo``, the folder git runs hooks in.
    """
    out = run(["rev-parse", "--git-path", name], repo).stdout.strip()
    return (repo / out).resolve() if not os.path.isabs(out) else Path(out)


def config_value(repo: Path, key: str) -> str | None:
    """Returns the effective value of a git config key in ``repo``, or None when unset."""
    proc = run(["config", "--get", key], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def commit_of(repo: Path, rev: str) -> str | None:
    """Returns the commit id ``rev`` names (``ORIG_HEAD``, ``HEAD@{1}``...), or None."""
    proc = run(["rev-parse", "-q", "--verify", f"{rev}^{{commit}}"], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def changed_between(repo: Path, old: str, new: str, pathspec: str | None = None) -> list[str]:
    """Paths that differ between two commits (renames as delete + add), repo-relative."""
    args = ["diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", old, new]
    out = _git_bytes([*args, "--", pathspec] if pathspec else args, repo)
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def staged_files(
    repo: Path, index_file: str | None = None, pathspec: str | None = None
) -> list[tuple[str, str, str]]:
    """The changes staged for the next commit, as ``(status, path, blob id)``.

    ``status`` is git's letter (A, M, D, T...); a deleted path has the null blob id.
    ``index_file`` is the GIT_INDEX_FILE git gave the hook, if any.
    """
    args = ["diff", "--cached", "--raw", "-z", "--no-renames", "--no-abbrev", "--no-ext-diff"]
    out = _git_bytes([*args, "--", pathspec] if pathspec else args, repo, index_file=index_file)
    fields = out.decode("utf-8", "surrogateescape").split("\0")
    found: list[tuple[str, str, str]] = []
    for meta, path in zip(fields[0::2], fields[1::2], strict=False):
        parts = meta.split()
        if len(parts) == 5:  # ":old_mode new_mode old_id new_id status"
            found.append((parts[4][:1], path, parts[3]))
    return found


def read_blobs(repo: Path, ids: Sequence[str]) -> dict[str, bytes]:
    """Reads blobs by id in one ``git cat-file --batch`` call."""
    if not ids:
        return {}
    out = _git_bytes(["cat-file", "--batch"], repo, input="".join(f"{i}\n" for i in ids).encode())
    blobs: dict[str, bytes] = {}
    pos = 0
    while pos < len(out):
        end = out.index(b"\n", pos)
        header = out[pos:end].decode().split()
        pos = end + 1
        if len(header) == 3:
            size = int(header[2])
            blobs[header[0]] = out[pos : pos + size]
            pos += size + 1  # the blob is followed by a newline
    return blobs


def ignored_paths(repo: Path, paths: Sequence[str]) -> set[str]:
    """The paths the repository's ignore rules exclude, tracked or not (``check-ignore``)."""
    if not paths:
        return set()
    data = "".join(f"{p}\0" for p in paths).encode("utf-8", "surrogateescape")
    out = _git_bytes(["check-ignore", "--no-index", "-z", "--stdin"], repo, input=data, ok=(0, 1))
    return {p for p in out.decode("utf-8", "surrogateescape").split("\0") if p}
