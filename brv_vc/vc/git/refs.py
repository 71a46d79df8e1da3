"""Names git resolves: the work tree's top, git's own paths, commits, config, ancestry."""

from __future__ import annotations

import os

from brv_vc.vc.git.errors import translate
from brv_vc.vc.git.process import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

def toplevel(start: Path) -> Path | None:
    """Returns the top folder of the work tree holding ``start``, or None outside git."""
    proc = run(["rev-parse", "--show-toplevel"], start, check=False)
    out = proc.stdout.strip()
    from pathlib import Path  # runtime import kept local: see the note on imports above

    return Path(out).resolve() if proc.returncode == 0 and out else None


def git_path(repo: Path, name: str) -> Path:
    """Returns ``git rev-parse --git-path NAME`` as an absolute path.

    It honours ``core.hooksPath`` (for ``hooks``) and linked worktrees (``hooks`` lives in the
    common git dir, ``rebase-merge`` in the worktree's own). A relative answer is relative to
    ``repo``, the folder git runs hooks in.
    """
    out = run(["rev-parse", "--git-path", name], repo).stdout.strip()
    from pathlib import Path

    return (repo / out).resolve() if not os.path.isabs(out) else Path(out)


def branch_name(repo: Path) -> str:
    """The current branch's short name (``HEAD`` when detached)."""
    proc = run(["symbolic-ref", "--quiet", "--short", "HEAD"], repo, check=False)
    out = proc.stdout.strip() if proc.returncode == 0 else ""
    return out or "HEAD"


def git_dirs(repo: Path) -> tuple[Path, Path]:
    """(the repository's own git directory, the one its work trees share), absolute.

    One ``rev-parse``.

    Raises:
        GitError: not a repository, in :func:`errors.translate`'s words.
    """
    args = ["rev-parse", "--absolute-git-dir", "--path-format=absolute", "--git-common-dir"]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        raise translate(args, proc)
    from pathlib import Path

    own, common = proc.stdout.splitlines()
    return Path(own), Path(common)


def whereabouts(repo: Path) -> tuple[Path, Path, str, str] | None:
    """(git dir, common dir, HEAD's commit, branch) by one ``rev-parse``.

    The branch is ``HEAD`` when detached; None before the first commit or when HEAD names
    no branch (the caller asks one by one).
    """
    proc = run(["rev-parse", "--absolute-git-dir", "--path-format=absolute",
                "--git-common-dir", "HEAD^{commit}", "--symbolic-full-name", "HEAD"],
               repo, check=False)
    lines = proc.stdout.splitlines()
    if proc.returncode == 0 and len(lines) == 4 and (
            lines[3] == "HEAD" or lines[3].startswith("refs/heads/")):
        from pathlib import Path

        return Path(lines[0]), Path(lines[1]), lines[2], lines[3].removeprefix("refs/heads/")
    return None


def commits_of(repo: Path, *revs: str) -> list[str | None]:
    """:func:`commit_of` of several names, with one ``git rev-parse`` when all exist."""
    proc = run(["rev-parse", "-q", *(f"{rev}^{{commit}}" for rev in revs)], repo, check=False)
    found = proc.stdout.split()
    if proc.returncode == 0 and len(found) == len(revs):
        return list(found)
    return [commit_of(repo, rev) for rev in revs]


def upstream_of_head(repo: Path) -> tuple[str, str, str, str] | None:
    """HEAD's commit, its branch's ref, the upstream's ref and commit, by one ``rev-parse``.

    None when HEAD is detached, unborn or has no fetched upstream.
    """
    proc = run(["rev-parse", "HEAD^{commit}", "@{upstream}^{commit}", "--symbolic-full-name",
                "HEAD", "@{upstream}"], repo, check=False)
    lines = proc.stdout.splitlines() if proc.returncode == 0 else []
    if len(lines) == 4 and lines[2].startswith("refs/heads/"):
        return lines[0], lines[2], lines[3], lines[1]
    return None


def config_value(repo: Path, key: str) -> str | None:
    """Returns the effective value of a git config key in ``repo``, or None when unset."""
    proc = run(["config", "--get", key], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def commit_of(repo: Path, rev: str) -> str | None:
    """Returns the commit id ``rev`` names (``ORIG_HEAD``, ``HEAD@{1}``...), or None."""
    proc = run(["rev-parse", "-q", "--verify", f"{rev}^{{commit}}"], repo, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def is_shallow(repo: Path) -> bool:
    """True in a shallow clone (history before its boundary commits is missing)."""
    out = run(["rev-parse", "--is-shallow-repository"], repo, check=False).stdout.strip()
    return out == "true"


def is_ancestor(repo: Path, older: str, newer: str) -> bool:
    """True when ``older`` is an ancestor of (or is) ``newer`` (``merge-base --is-ancestor``)."""
    return run(["merge-base", "--is-ancestor", older, newer], repo, check=False).returncode == 0


def empty_tree(repo: Path) -> str:
    """The id of the empty tree in ``repo``'s object format (to diff against before HEAD)."""
    return run(["hash-object", "-t", "tree", "/dev/null"], repo).stdout.strip()


def config_values(repo: Path, pattern: str, *scope: str) -> list[tuple[str, str]]:
    """Every ``(key, value)`` of git config whose key matches ``pattern`` (a regexp).

    In git's order; ``scope``: ``--local`` and the like. Keys as git gives them.
    """
    proc = run(["config", *scope, "-z", "--get-regexp", pattern], repo, check=False)
    found = []
    for item in proc.stdout.split("\0") if proc.returncode == 0 else ():
        key, sep, value = item.partition("\n")
        if key:
            found.append((key, value if sep else ""))
    return found


def set_config(repo: Path, key: str, value: str) -> None:
    """Sets ``key`` to ``value`` in ``repo``'s own config (``git config --local``).

    Raises:
        GitError: git refused, in :func:`errors.translate`'s words.
    """
    args = ["config", "--local", key, value]
    proc = run(args, repo, check=False)
    if proc.returncode != 0:
        raise translate(args, proc)


def file_at(repo: Path, rev: str, path: str) -> str | None:
    """The text of ``path`` at commit ``rev`` (``git show REV:PATH``); None when absent."""
    proc = run(["show", f"{rev}:{path}"], repo, check=False)
    return proc.stdout if proc.returncode == 0 else None


def same_at(repo: Path, old: str, new: str, path: str) -> bool:
    """True when ``path`` is the same at commits ``old`` and ``new`` (``diff --quiet``)."""
    return run(["diff", "--quiet", old, new, "--", path], repo, check=False).returncode == 0
