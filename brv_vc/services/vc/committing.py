"""Local vc use cases ``commit`` and ``log``.

``add``, ``status`` and ``reset`` are in ``staging``, ``changes`` and ``resetting``.

Every command is scoped to the tree's pathspec, so in in-project mode knowledge commands
never read, stage or commit code files.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from brv_vc.errors import ConflictError, FormatError, GitError, NotFoundError, UsageError
from brv_vc.services.vc.archive import processed_head, record_head
from brv_vc.services.vc.changes import status
from brv_vc.services.vc.gating import OVERRIDE_ENV, project_of, refuse_pending
from brv_vc.services.vc.staging import staged_paths
from brv_vc.tree.layout import ARCHIVE_DIR
from brv_vc.vc import exclusions
from brv_vc.vc.archived import trailer_block
from brv_vc.vc.repo import KnowledgeRepo

if TYPE_CHECKING:
    from collections.abc import Sequence

    from brv_vc.vc.status import Change


def archived_deletions(repo: KnowledgeRepo, index_file: Path | None = None) -> list[str]:
    """Staged deletions of entries archived on this machine (an ``_archived/`` copy exists).

    These are the paths a commit names in ``Brv-Archived:`` trailers, so every other clone
    rebuilds the archive from history. ``index_file`` is the index git handed a hook
    (``commit -a``).
    """
    out = repo.git("diff", "--cached", "--name-only", "-z", "--no-renames",
                   "--diff-filter=D", *repo.pathspec(), index_file=index_file).stdout
    deleted = [p for p in (repo.tree_path(x) for x in out.split("\0") if x) if p]
    return [p for p in deleted if _archived_locally(repo, p)]


def conflict_marker_files(repo: KnowledgeRepo, where: str) -> list[str]:
    """Tracked knowledge files holding a marker triplet.

    ``where`` is "worktree", "index" or a commit.

    Raises:
        GitError: ``git grep`` failed (a match and no match are both normal).
    """
    scope = [] if where == "worktree" else ["--cached"] if where == "index" else [where]
    proc = repo.git("grep", "-l", "-I", "--all-match", "-e", "^<<<<<<<", "-e", "^=======",
                    "-e", "^>>>>>>>", *scope, *repo.pathspec(), check=False)
    if proc.returncode not in (0, 1):
        raise GitError(f"git grep failed: {proc.stderr.strip()}")
    names = [line.split(":", 1)[1] if where not in ("worktree", "index") else line
             for line in proc.stdout.splitlines() if line]
    return [p for p in (repo.tree_path(n) for n in names) if p]


def refuse_markers(repo: KnowledgeRepo, where: str, action: str) -> None:
    """Raises ConflictError when tracked knowledge files still hold conflict markers."""
    found = conflict_marker_files(repo, where)
    if found:
        raise ConflictError(
            f"cannot {action}: conflict markers remain in " + ", ".join(found),
            file=found[0],
            hint="edit the files to resolve each <<<<<<< / ======= / >>>>>>> block, then "
                 "'brv vc add' them",
        )


def refuse_unmerged(conflicts: Sequence[Change], action: str) -> None:
    """Raises ConflictError while git still records unmerged paths (commit, merge --continue)."""
    if conflicts:
        raise ConflictError(
            f"cannot {action}: unmerged paths " + ", ".join(c.path for c in conflicts),
            file=conflicts[0].path,
            hint="edit each file to resolve the <<<<<<< blocks, 'brv vc add' it, then run "
                 "'brv vc merge --continue'",
        )


def refuse_excluded(repo: KnowledgeRepo, tracked: list[str], action: str) -> None:
    """Raises GitError when sync-excluded files (force-added) are tracked."""
    bad = [p for p in tracked if exclusions.is_excluded(p)]
    if bad:
        cmd = "git rm --cached -- " + " ".join(repo.repo_path(p) for p in bad)
        if not repo.prefix:
            cmd = "git -C .brv/context-tree rm --cached -- " + " ".join(bad)
        raise GitError(
            f"cannot {action}: sync-excluded (derived) files are tracked: {', '.join(bad)}"
,
            file=bad[0],
            hint=f"untrack them (the files stay on disk): {cmd}",
        )


# the commit 'brv vc push' checked with refuse_unpushable: its pre-push hook skips that one
PUSH_CHECKED_ENV = "BRV_PUSH_CHECKED"


def refuse_unpushable(repo: KnowledgeRepo, rev: str) -> None:
    """Refuses to push commit ``rev``: conflict markers, or tracked sync-excluded files.

    One code path for ``brv vc push`` and git's pre-push hook (a plain ``git push``).

    Raises:
        ConflictError: conflict markers in the commit's knowledge.
        GitError: derived or excluded files are tracked in it.
    """
    refuse_markers(repo, rev, "push")
    tracked = repo.git("ls-tree", "-r", "-z", "--name-only", rev, *repo.pathspec()).stdout
    refuse_excluded(repo, [p for p in (repo.tree_path(x) for x in tracked.split("\0") if x)
                           if p], "push")


@dataclass(frozen=True)
class CommitResult:
    """``brv vc commit``."""

    sha: str
    branch: str
    message: str
    files: int
    archived: tuple[str, ...]


def _archived_locally(repo: KnowledgeRepo, path: str) -> bool:
    stem = path.removesuffix(".md")
    base = repo.tree / ARCHIVE_DIR
    return any((base / name).exists() for name in (f"{stem}.full.md", f"{stem}.stub.md", path))


def commit(repo: KnowledgeRepo, message: str, *, include_pending: bool = False) -> CommitResult:
    """Commits the staged knowledge changes (only those, even in in-project mode).

    With review enabled, staged changes still waiting for review are refused unless
    ``include_pending`` (the pre-commit hook is then told so too).

    Raises:
        UsageError: an empty message.
        ConflictError: unmerged paths or conflict markers remain, or pending review.
        GitError: nothing staged, force-added excluded files, missing identity.
        FormatError: a staged entry is malformed or breaks the frontmatter schema.
    """
    if not message.strip():
        raise UsageError("the commit message is empty", hint='give one: brv vc commit -m "..."')
    st = status(repo)
    refuse_unmerged(st.conflicts, "commit")
    refuse_markers(repo, "index", "commit")
    refuse_markers(repo, "worktree", "commit")
    tracked = repo.git("ls-files", "-z", "-ci", "--exclude-standard", *repo.pathspec()).stdout
    refuse_excluded(repo, [p for p in (repo.tree_path(x) for x in tracked.split("\0") if x)
                           if p], "commit")
    staged = staged_paths(repo)
    if not staged and not st.merging:
        raise GitError("nothing to commit: no knowledge changes are staged",
                       hint="stage them first with 'brv vc add' (see 'brv vc status')")
    refuse_invalid(repo)
    if not include_pending:
        refuse_pending(repo, staged, "commit")
    # checked (or overridden) here: the pre-commit hook need not read the review queue again
    env = {**os.environ, OVERRIDE_ENV: "1"}
    archived = archived_deletions(repo)
    full = message.rstrip("\n") + ("\n\n" + trailer_block(archived) if archived else "")
    outside = set(staged_paths(repo, whole_repo=True)) - set(staged)
    parent = repo.head()
    if outside and not st.merging:
        _commit_only_knowledge(repo, full, env)
    else:
        repo.git("commit", "-q", "-m", full, what="commit", env=env)
    sha = repo.head() or ""
    project = project_of(repo)
    if parent is None or processed_head(project) == parent:
        record_head(project, sha)  # a commit changes no file: nothing for the catch-up to do
    return CommitResult(sha, repo.branch(), full, len(staged), tuple(archived))


def refuse_invalid(repo: KnowledgeRepo) -> None:
    """Refuses staged knowledge that the pre-commit hook would refuse, with its per-file messages.

    This validates a commit even where the hooks are not installed.

    There is no bypass: 'brv vc commit' only ever commits valid knowledge (plain
    'git commit --no-verify' remains for the rare emergency).

    Raises:
        FormatError: one line per refused file, with its fix.
    """
    from brv_vc.services.vc.checks import check_staged  # YAML + schema: only on commit

    problems = check_staged(repo, None).problems
    if not problems:
        return
    lines = [f"cannot commit: {len(problems)} staged file(s) are not valid knowledge"]
    for problem in problems:
        key = f" (key '{problem.key}')" if problem.key else ""
        lines.append(f"  {problem.file}{key}: {problem.message}")
        if problem.hint:
            lines.append(f"    fix: {problem.hint}")
    raise FormatError("\n".join(lines), file=problems[0].file, key=problems[0].key or None,
                      hint="fix the files, stage them again with 'brv vc add', then commit; "
                           "nothing was committed")


def _commit_only_knowledge(repo: KnowledgeRepo, message: str,
                           env: dict[str, str] | None = None) -> None:
    """Commits the staged knowledge while code changes staged by the user stay staged.

    Trigger: in-project mode with code staged too. Why: 'brv vc commit' must never commit
    code. Outcome: a temporary index (HEAD + the staged knowledge entries) is committed by
    the real ``git commit`` (hooks run); afterwards the real index matches HEAD for the
    knowledge paths and still holds the code changes.
    """
    fd, tmp = tempfile.mkstemp(prefix="brv-index-")
    os.close(fd)
    index = Path(tmp)
    try:
        index.unlink()
        repo.git("read-tree", "HEAD" if repo.head() else "--empty", index_file=index)
        spec = repo.commit_pathspec()  # knowledge plus .brv/config.yaml and .brv/.gitignore
        old = repo.git("ls-files", "-z", *spec, index_file=index).stdout
        if old:
            repo.git("update-index", "-z", "--force-remove", "--stdin", index_file=index,
                     input=old)
        entries = repo.git("ls-files", "-s", "-z", *spec).stdout
        if entries:
            repo.git("update-index", "-z", "--index-info", index_file=index, input=entries)
        repo.git("commit", "-q", "-m", message, index_file=index, what="commit", env=env)
        repo.git("reset", "-q", "HEAD", *spec)
    finally:
        index.unlink(missing_ok=True)


@dataclass(frozen=True)
class LogEntry:
    """One commit of ``brv vc log``."""

    sha: str
    author: str
    email: str
    date: str
    subject: str


def log(repo: KnowledgeRepo, ref: str | None = None, *, all_branches: bool = False,
        limit: int = 10) -> tuple[LogEntry, ...]:
    """The newest commits that touched knowledge.

    Raises:
        NotFoundError: an unknown branch or ref.
    """
    if repo.head() is None and ref is None:
        return ()
    if ref is not None and repo.rev(ref) is None:
        raise NotFoundError(f"unknown branch or ref '{ref}'",
                            hint="list branches with 'brv vc branch -a'")
    target = ["--all"] if all_branches else [ref or "HEAD"]
    spec = repo.pathspec() if repo.prefix else []
    out = repo.git("log", f"-n{limit}", "--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e",
                   *target, *spec).stdout
    rows = [r.strip("\n").split("\x1f") for r in out.split("\x1e") if r.strip()]
    return tuple(LogEntry(*row) for row in rows if len(row) == 5)
