"""``brv vc reset``: unstage knowledge files, or move the branch as ``git reset`` does.

A hard reset rewrites the working tree, so it runs the same after-change step as pull,
merge and checkout; a mode-less ``reset ARG`` tells a path from a commit as git does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from brv_vc.errors import ConflictError, NotFoundError, UsageError
from brv_vc.services.vc.staging import names_knowledge, repo_paths
from brv_vc.tree import writelock
from brv_vc.tree.project import Project
from brv_vc.vc import git
from brv_vc.vc.git import stage
from brv_vc.vc.repo import KnowledgeRepo

if TYPE_CHECKING:
    from brv_vc.services.vc.archive import AfterChange


@dataclass(frozen=True)
class ResetResult:
    """``brv vc reset``."""

    mode: str  # unstage | soft | mixed | hard
    target: str | None
    paths: tuple[str, ...]
    after: AfterChange | None = None  # derived state refreshed after --hard
    sha: str = ""  # the new HEAD (soft/mixed/hard)
    subject: str = ""  # its subject line


def reset(repo: KnowledgeRepo, paths: tuple[str, ...] = (), *, mode: str = "unstage",
          ref: str | None = None, project: Project | None = None,
          now: datetime | None = None, cwd: Path | None = None) -> ResetResult:
    """Unstages knowledge paths, or (``soft``/``mixed``/``hard``) moves the branch to ``ref``.

    As with ``git reset ARG``, a single ``paths`` item that names no knowledge file but a
    commit moves the branch there (``mixed``: unstage, keep the files).

    With ``project`` and ``now``, a hard reset then runs the same after-change step as
    pull, merge and checkout (archives from trailers, derived files), since it rewrites
    the working tree; that includes the paths whose uncommitted changes it discarded.

    Raises:
        UsageError: an unknown mode.
        ConflictError: a branch-moving reset in in-project mode (it would move code too),
            or ``soft`` during a merge.
        NotFoundError: an unknown ref, or a path that names neither knowledge nor a commit.
    """
    if mode == "unstage" and paths:
        ref = _commit_named(repo, paths, cwd)
        mode = "unstage" if ref is None else "mixed"
    if mode == "unstage":
        targets = repo_paths(repo, paths, cwd)
        if repo.head():
            stage.unstage(repo, ["--", *targets])
        else:
            stage.untrack(repo, targets)
        return ResetResult(mode, None, tuple(paths))
    if mode not in ("soft", "mixed", "hard"):
        raise UsageError(f"unknown reset mode '{mode}'", hint="use --soft, --mixed or --hard")
    if repo.in_project:
        raise ConflictError(
            f"'brv vc reset {_shown(mode, ref)}' would move the project's branch, code "
            "included; nothing was changed",
            hint="use plain git for that; 'brv vc reset [PATHS]' unstages knowledge files",
        )
    target = ref or "HEAD"
    if repo.rev(target) is None:
        raise NotFoundError(f"unknown branch or ref '{target}'",
                            hint="see commits with 'brv vc log'")
    if mode == "soft" and repo.merging():
        raise ConflictError("cannot soft-reset during a merge",
                            hint="finish with 'brv vc merge --continue' or '--abort'")
    if mode == "hard" and project is not None:
        with writelock.hold(project):  # git rewrites the work tree: no brv writer meanwhile
            return _move(repo, mode, target, project, now)
    return _move(repo, mode, target, project, now)


def _move(repo: KnowledgeRepo, mode: str, target: str, project: Project | None,
          now: datetime | None) -> ResetResult:
    """``git reset --<mode> target``, then (hard) the after-change step."""
    old = repo.head()
    discarded = _uncommitted_paths(repo, target) if mode == "hard" else ()
    stage.move_head(repo, target, mode)
    after = None
    if mode == "hard" and project is not None and now is not None:
        from brv_vc.services.vc.archive import after_change

        after = after_change(project, repo, old, repo.head(), now, also=discarded)
    sha, subject = git.head_subject(repo.workdir)
    return ResetResult(mode, target, (), after, sha, subject)


def _shown(mode: str, ref: str | None) -> str:
    """The reset as the user typed it (a lone REF is a mixed reset without the flag)."""
    return " ".join(p for p in (f"--{mode}" if mode != "mixed" or not ref else "", ref) if p)


def _commit_named(repo: KnowledgeRepo, paths: tuple[str, ...], cwd: Path | None
                  ) -> str | None:
    """The commit a mode-less ``reset ARG`` names, or None when every item is a path.

    Raises:
        NotFoundError: an item that is neither (nothing is changed), or a commit given
            together with paths.
    """
    strays = [p for p in paths if not names_knowledge(repo, p, cwd)]
    if not strays:
        return None
    if len(paths) == 1 and repo.rev(paths[0]) is not None:
        return paths[0]
    stray = strays[0]
    if repo.rev(stray) is not None:
        raise NotFoundError(
            f"'{stray}' is a commit, not a knowledge file; nothing was changed",
            hint=f"to move the branch give it alone: 'brv vc reset {stray}' "
                 "(or --soft/--hard); to unstage, name only knowledge files")
    raise NotFoundError(f"no knowledge file or commit named '{stray}'; nothing was changed",
                        hint="see changed files with 'brv vc status' and commits with "
                             "'brv vc log'")


def _uncommitted_paths(repo: KnowledgeRepo, target: str) -> tuple[str, ...]:
    """Tree paths whose working-tree or staged content differs from ``target``.

    Trigger: ``reset --hard``. Why: it also discards uncommitted edits and staged new
    entries, which no commit between the old and the new HEAD names, so their derived
    files (``_index.md``, abstracts, the manifest) would describe text that is gone.
    Outcome: the refresh after the reset covers them too.
    """
    found: dict[str, None] = {}
    for staged in (False, True):
        found.update(dict.fromkeys(p for p in (repo.tree_path(x) for x in git.differing_from(
            repo.workdir, target, repo.prefix or ".", staged=staged)) if p))
    return tuple(found)

