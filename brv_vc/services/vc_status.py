"""``brv vc status``: git's view of the knowledge files, plus files holding conflict markers.

Kept apart from the other vc services (and light on imports) because agents call it often:
DESIGN.md budgets it at 2x a plain ``git status`` on a 25,000-file tree. It never parses an
entry; only changed files are opened, to look for conflict markers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo, translate

TYPE_CHECKING = False  # typing costs ~2 ms to import, on the budgeted status path
if TYPE_CHECKING:
    from brv_vc.vc.status import Change


@dataclass(frozen=True)
class StatusReport:
    """``brv vc status``: git's view of the knowledge files, plus conflict markers."""

    mode: str
    branch: str
    initial: bool
    upstream: str | None
    ahead: int
    behind: int
    merging: bool
    staged: tuple[Change, ...]
    unstaged: tuple[Change, ...]
    untracked: tuple[str, ...]
    conflicts: tuple[Change, ...]
    markers: tuple[str, ...]
    clean: bool  # nothing staged, changed, untracked or conflicted


def _git_dir(repo: KnowledgeRepo) -> Path:
    dot = repo.workdir / ".git"
    return dot if dot.is_dir() else repo.git_dir()


def status(repo: KnowledgeRepo) -> StatusReport:
    """Reads the status of the knowledge files with one ``git status`` run.

    git is started first and the parsing code imported while it works. Untracked folders
    are listed as ``folder/``, as git status does (``-uall`` costs a fifth more on a
    25,000-file tree; splitting status into two parallel runs gains nothing, because git
    already spreads the index refresh over all cores). A committed file cannot hold
    conflict markers (commit and push refuse them), so only changed files are opened.

    Raises:
        GitError: git failed.
    """
    if repo.prefix:
        args = ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all",
                *repo.pathspec()]
    else:
        args = list(git.STATUS_ARGS)
    running = git.take_prefetched(args, repo.workdir) or git.start([args], repo.workdir)
    # imported while git works: these imports overlap with the git process
    from brv_vc.vc.status import has_conflict_markers, parse_porcelain

    (proc,) = running.wait()
    if proc.returncode != 0:
        raise translate(["status"], proc)
    parsed = parse_porcelain(proc.stdout, repo.tree_path)
    untracked = parsed.untracked
    changed = dict.fromkeys([
        *(c.path for c in parsed.conflicts), *(c.path for c in parsed.unstaged),
        *(c.path for c in parsed.staged), *untracked,
    ])
    markers = []
    for path in changed:
        try:
            if has_conflict_markers((repo.tree / path).read_bytes()):
                markers.append(path)
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            continue
    return StatusReport(
        mode="in-project" if repo.in_project else "standalone",
        branch=parsed.branch, initial=parsed.initial, upstream=parsed.upstream,
        ahead=parsed.ahead, behind=parsed.behind,
        merging=(_git_dir(repo) / "MERGE_HEAD").exists(),
        staged=parsed.staged, unstaged=parsed.unstaged, untracked=untracked,
        conflicts=parsed.conflicts, markers=tuple(markers),
        clean=not (parsed.staged or parsed.unstaged or untracked or parsed.conflicts),
    )
