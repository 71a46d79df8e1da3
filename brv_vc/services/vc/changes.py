"""``brv vc status``: git's view of the knowledge files, plus files holding conflict markers.

Kept apart from the other vc services (and light on imports) because agents call it often:
DESIGN.md budgets it at 2x a plain ``git status`` on a 25,000-file tree. It never parses an
entry; only changed files are opened, to look for conflict markers.
"""

from __future__ import annotations

from pathlib import Path

from brv_vc.errors import GitError
from brv_vc.record import NamedTuple
from brv_vc.vc import git
from brv_vc.vc.git import prefetch
from brv_vc.vc.repo import KnowledgeRepo, translate

TYPE_CHECKING = False
if TYPE_CHECKING:

    from brv_vc.vc.status import Change


class StatusReport(NamedTuple):  # not a dataclass: see vc/status.py
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
    committed_markers: tuple[str, ...] = ()  # unchanged files whose COMMITTED text has markers


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
    running = prefetch.start_status(repo.workdir, repo.prefix)
    # imported while git works: these imports overlap with the git process
    from brv_vc.format.conflicts import has_conflict
    from brv_vc.vc.status import parse_porcelain

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
            if has_conflict((repo.tree / path).read_bytes()):
                markers.append(path)
        except (FileNotFoundError, IsADirectoryError, PermissionError):
            continue
    committed = [p for p in _committed_markers(repo, parsed.oid) if p not in changed]
    return StatusReport(
        mode="in-project" if repo.in_project else "standalone",
        branch=parsed.branch, initial=parsed.initial, upstream=parsed.upstream,
        ahead=parsed.ahead, behind=parsed.behind,
        merging=(_git_dir(repo) / "MERGE_HEAD").exists(),
        staged=parsed.staged, unstaged=parsed.unstaged, untracked=untracked,
        conflicts=parsed.conflicts, markers=tuple(markers),
        clean=not (parsed.staged or parsed.unstaged or untracked or parsed.conflicts),
        committed_markers=tuple(committed),
    )


MARKER_CACHE = "brv-markers"


_INCREMENTAL_LIMIT = 2000  # more changed paths than this: grep the whole HEAD instead


def _committed_markers(repo: KnowledgeRepo, oid: str) -> list[str]:
    """Tracked knowledge files whose text at HEAD holds a conflict block.

    Trigger: markers committed with plain git (no hooks, or --no-verify). Why: status would
    call such a tree clean. Outcome: the answer is cached per HEAD in the git directory
    (never in the tree); after a new commit only the paths it changed are searched again,
    so status stays within its budget.
    """
    if not oid:
        return []
    cache = _git_dir(repo) / MARKER_CACHE
    known: list[str] | None = None
    try:
        first, _, rest = cache.read_text(encoding="utf-8").partition("\n")
        known = [p for p in rest.split("\n") if p]
        if first == oid:
            return known
    except (OSError, UnicodeDecodeError):
        first = ""
    scope = repo.pathspec()
    kept: list[str] = []
    if known is not None and first:
        try:
            changed: list[str] | None = git.changed_between(repo.workdir, first, oid,
                                                             repo.prefix or None)
        except GitError:  # e.g. the cached commit is gone: grep the whole tree
            changed = None
        if changed is not None and len(changed) <= _INCREMENTAL_LIMIT:
            gone = {repo.tree_path(p) for p in changed}
            kept = [p for p in known if p not in gone]
            scope = ["--", *changed] if changed else []
    try:
        found = _grep_markers(repo, oid, scope) if scope else []
    except GitError:  # status still reports what git status says; nothing cached, asked again
        return kept
    result = sorted(set(kept + found))
    try:  # noqa: SIM105 - contextlib is not loaded on the 'vc status' path (~0.5 ms)
        cache.write_text(oid + "\n" + "".join(p + "\n" for p in result), encoding="utf-8")
    except OSError:  # read-only repository: search again next time
        pass
    return result


def _grep_markers(repo: KnowledgeRepo, oid: str, scope: list[str]) -> list[str]:
    """The tree paths under ``scope`` whose text at ``oid`` holds a conflict block.

    Raises:
        GitError: ``git grep`` failed.
    """
    from brv_vc.vc.git.conflict_grep import files_with_conflicts

    names = files_with_conflicts(repo.workdir, oid, scope)
    return [p for p in (repo.tree_path(n) for n in names) if p]
