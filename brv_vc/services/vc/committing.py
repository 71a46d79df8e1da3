"""Local vc use cases ``commit`` and ``log``.

``add``, ``status`` and ``reset`` are in ``staging``, ``changes`` and ``resetting``.

Every command is scoped to the tree's pathspec, so in in-project mode knowledge commands
never read, stage or commit code files.
"""

from __future__ import annotations

import os
from pathlib import Path

from brv_vc import environment
from brv_vc.errors import ConflictError, FormatError, GitError, NotFoundError, UsageError
from brv_vc.record import NamedTuple
from brv_vc.services.vc.gating import OVERRIDE_ENV, project_of, refuse_pending
from brv_vc.services.vc.hook_env import CHECKED_SUFFIX, COMMIT_CHECKED_ENV, TRAILERS_SUFFIX
from brv_vc.services.vc.markers import marker_files_in, refuse_excluded, refuse_marker_files
from brv_vc.services.vc.trailers import archived_deletions
from brv_vc.vc import git
from brv_vc.vc.archived import trailer_block
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from datetime import datetime

    from brv_vc.tree.project import Project
    from brv_vc.vc.status import Change


def refuse_unmerged(conflicts: Sequence[Change], action: str) -> None:
    """Raises ConflictError while git still records unmerged paths (commit, merge --continue)."""
    if conflicts:
        raise ConflictError(
            f"cannot {action}: unmerged paths " + ", ".join(c.path for c in conflicts),
            file=conflicts[0].path,
            hint="edit each file to resolve the <<<<<<< blocks, 'brv vc add' it, then run "
                 "'brv vc merge --continue'",
        )


class CommitResult(NamedTuple):
    """``brv vc commit`` (a NamedTuple: no dataclasses import on the commit path)."""

    sha: str
    branch: str
    message: str
    files: int
    archived: tuple[str, ...]


def commit(repo: KnowledgeRepo, message: str, *, include_pending: bool = False,
           now: datetime | None = None) -> CommitResult:
    """Commits the staged knowledge changes (only those, even in in-project mode).

    With review enabled, staged changes still waiting for review are refused unless
    ``include_pending`` (the pre-commit hook is then told so too). The derived state of the
    committed paths is refreshed here, in this process, as the pre-commit hook would (the
    hooks see the tree validated here and start no Python: ``hook_env.COMMIT_CHECKED_ENV``);
    ``now`` is its clock (default: now). Under the project's write lock: a brv writer's
    moment on git's index.lock (vc/git_index_lock.py) is waited for, not failed on; the
    hooks git runs meanwhile take no write lock.

    Raises:
        UsageError: an empty message.
        ConflictError: unmerged paths or conflict markers remain, pending review, or a
            merge git never applied (MERGE_HEAD with the index still HEAD's).
        GitError: nothing staged, force-added excluded files, missing identity.
        FormatError: a staged entry is malformed or breaks the frontmatter schema.
    """
    if not message.strip():
        raise UsageError("the commit message is empty", hint='give one: brv vc commit -m "..."')
    from brv_vc.tree import writelock

    with writelock.hold(project_of(repo)):
        return _commit(repo, message, include_pending, now)


def _commit(repo: KnowledgeRepo, message: str, include_pending: bool,
            now: datetime | None) -> CommitResult:
    from brv_vc.services.vc.checks import (  # YAML + schema: only on commit
        in_check_scope,
        unapplied_merge_problem,
    )

    # the git dir (for MERGE_HEAD), the parent and the branch: read from the files, or one
    # rev-parse (repo.whereabouts)
    git_dir, common, parent, branch = repo.whereabouts()
    # what is staged, listed once (code too in in-project mode: it must stay out of this
    # commit), with modes and blobs; every check below reads only that, each blob once.
    # Listed as the tree the index names against the parent (see _staged_tree); else (no
    # parent, or no tree: unmerged paths) from the index, unmerged paths among the rows
    # (status U, one a path), as 'git ls-files -u' has them.
    tree = _staged_tree(repo) if parent else None
    listed = (git.changed_entries(repo.workdir, parent, tree) if parent and tree
              else git.staged_entries(repo.workdir))
    refuse_unmerged(_unmerged_in(repo, listed), "commit")
    merging = repo.merging(git_dir)
    unapplied = unapplied_merge_problem(repo, git_dir, tree) if merging and tree else None
    if unapplied is not None:  # the pre-commit hook's refusal too (checks.py)
        raise ConflictError(f"cannot commit: {unapplied.message}", hint=unapplied.hint)
    changes = [row for row in listed if repo.tree_path(row[1]) is not None]
    checked = [row for row in listed if in_check_scope(repo, row[1])]
    blobs = git.changed_blobs(repo.workdir, checked)
    refuse_marker_files(marker_files_in(repo, changes, blobs), "commit")
    refuse_excluded(repo, [rel for status, path, _, _ in changes if status != "D"
                           and (rel := repo.tree_path(path)) is not None], "commit")
    staged = [path for _, path, _, _ in listed if _committed(repo, path)]
    if not staged and not merging:
        raise GitError("nothing to commit: no knowledge changes are staged",
                       hint="stage them first with 'brv vc add' (see 'brv vc status')")
    refuse_invalid(repo, checked, blobs)
    if not include_pending:  # the queue names tree paths (in-project, staged has the prefix)
        refuse_pending(repo, [rel for p in staged if (rel := repo.tree_path(p)) is not None],
                       "commit")
    # checked (or overridden) here: the pre-commit hook need not read the review queue again
    env = environment.child({OVERRIDE_ENV: "1"})
    archived = archived_deletions(repo, deleted=[
        rel for status, path, _, _ in changes
        if status == "D" and (rel := repo.tree_path(path)) is not None])
    full = message.rstrip("\n") + ("\n\n" + trailer_block(archived) if archived else "")
    # in-project with code staged too: committed from a temporary index (code stays staged)
    apart = repo.in_project and len(listed) > len(staged) and not merging
    if apart:
        _commit_only_knowledge(repo, full, env, parent)
    else:
        index = git_dir / "index"
        try:
            _name_checked_tree(repo, env, index, tree)
            from brv_vc.vc.git.commit import commit as git_commit

            git_commit(repo, full, env=env)
        finally:
            _drop_checked_link(index)
    # a commit moves HEAD, never the branch it is on; git wrote the ref file just now
    sha = git.loose_head(git_dir, common, branch) or repo.head() or ""
    if parent and tree and sha and not apart:
        from brv_vc.vc.git_checked import record  # what vc push need not check again

        record(common, sha, parent, tree)
    from brv_vc.services.vc.archive import processed_head, record_head  # not on push's path

    project = project_of(repo)
    _refresh_committed(project, [rel for p in staged if (rel := repo.tree_path(p)) is not None],
                       now)
    if parent is None or processed_head(project) == parent:
        record_head(project, sha)  # a commit changes no file: nothing for the catch-up to do
    return CommitResult(sha, branch, full, len(staged), tuple(archived))


def _committed(repo: KnowledgeRepo, path: str) -> bool:
    """True when ``brv vc commit`` commits the staged path (``repo.commit_pathspec()``)."""
    if not repo.prefix:
        return True
    return (path == repo.prefix or path.startswith(repo.prefix + "/")
            or path in repo.project_files())


def _refresh_committed(project: Project, paths: list[str], now: datetime | None) -> None:
    """Refreshes the committed paths' derived state as the pre-commit hook of a plain commit.

    The index and the folder summaries along them; abstracts queued (``defer``). Fails open.
    """
    from brv_vc.clock import utcnow
    from brv_vc.services.derived import refresh

    # derived state is rebuilt by its next reader; the commit is made
    try:  # noqa: SIM105 - contextlib (~0.5 ms) is not imported on the commit path
        refresh(project, paths, now or utcnow(), defer=True, manifest=False)
    except Exception:
        pass


def _staged_tree(repo: KnowledgeRepo, index: Path | None = None) -> str | None:
    """The tree the index names (``git write-tree``), None when git cannot write one.

    Written before the checks, not after: the change is then listed as two trees differ
    (``git diff PARENT TREE``: git reads only what differs; ``diff --cached`` read every
    entry of the index, ~3 ms more CPU at 25,000 entries), the tree the hook is told was
    validated is the very one listed, and ``git commit`` finds the cache-tree whole (the
    work is not done twice). None: unmerged paths (no tree has them) or a git failure; the
    caller lists the index itself.
    """
    return git.write_tree(repo.workdir, index)


def _name_checked_tree(repo: KnowledgeRepo, env: dict[str, str], index: Path,
                       tree: str | None = None) -> None:
    """Tells the pre-commit hook which tree was validated here, so it does not do it again.

    ``index``: the index file ``git commit`` will commit (the repository's own, or a
    temporary one). ``tree``: the one :func:`_staged_tree` wrote from it already (else it is
    written here). The index gets a second name, ``<index>.brv-checked``, once its
    cache-tree is seen to name ``tree``. The shim
    then knows, without a ``git write-tree`` (~6 ms of CPU at 25,000 entries), that the
    index git hands it is that very file (``[ index -ef link ]``): git replaces the index
    by a rename whenever it changes it (a refresh, a legacy hook that stages more), and any
    other file is checked as before.
    """
    if tree is None:
        tree = _staged_tree(repo, index)
    if not tree:
        return
    env[COMMIT_CHECKED_ENV] = tree
    _link_checked(index, tree)


def _link_checked(index: Path, tree: str) -> None:
    """Names ``index`` ``<index>.brv-checked`` when its cache-tree's root is ``tree``.

    Linked first, read after (through the link: the file git will use, whatever replaced
    the index meanwhile): a file whose cache-tree names another tree, or none, loses the
    link. Fails open: no link only means the hook asks git.
    """
    from brv_vc.vc.git.cache_tree import committed_tree

    link = Path(f"{index}{CHECKED_SUFFIX}")
    try:
        link.unlink(missing_ok=True)
        os.link(index, link)
    except OSError:
        return
    if committed_tree(str(link)) != tree:
        _drop_checked_link(index)


def _drop_checked_link(index: Path) -> None:
    """Removes ``<index>.brv-checked`` (:func:`_link_checked`) once the commit is done."""
    try:  # noqa: SIM105 - contextlib (~0.5 ms) is not imported on the commit path
        os.unlink(f"{index}{CHECKED_SUFFIX}")
    except OSError:
        pass


def _unmerged_in(repo: KnowledgeRepo, listed: Sequence[tuple[str, str, str, str]]
                 ) -> list[Change]:
    """:func:`unmerged` read from a listing of the staged change (``git.staged_entries``)."""
    if all(status != "U" for status, _, _, _ in listed):
        return []  # the usual case: vc.status (~0.5 ms of imports) is not needed
    from brv_vc.vc.status import Change

    return [Change("unmerged", rel) for status, path, _, _ in listed
            if status == "U" and (rel := repo.tree_path(path)) is not None]


def refuse_invalid(repo: KnowledgeRepo, staged: Sequence[tuple[str, str, str, str]] | None = None,
                   blobs: Mapping[str, bytes] | None = None) -> None:
    """Refuses staged knowledge that the pre-commit hook would refuse, with its per-file messages.

    This validates a commit even where the hooks are not installed. ``staged`` and
    ``blobs``: the listing and the blobs the caller read already (``checks.check_staged``).

    There is no bypass: 'brv vc commit' only ever commits valid knowledge (plain
    'git commit --no-verify' remains for the rare emergency).

    Raises:
        FormatError: one line per refused file, with its fix.
    """
    from brv_vc.services.vc.checks import check_staged  # YAML + schema: only on commit

    problems = check_staged(repo, None, staged, blobs).problems
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


def _commit_only_knowledge(repo: KnowledgeRepo, message: str, env: dict[str, str],
                           parent: str | None) -> None:
    """Commits the staged knowledge while code changes staged by the user stay staged.

    Trigger: in-project mode with code staged too. Why: 'brv vc commit' must never commit
    code. Outcome: a temporary index (HEAD + the staged knowledge entries) is committed by
    the real ``git commit`` (hooks run); afterwards the real index matches HEAD for the
    knowledge paths and still holds the code changes.
    """
    import tempfile  # random, bz2, lzma...: only for this rarer commit, never on push's path

    from brv_vc.vc.git import stage
    from brv_vc.vc.git.commit import commit as git_commit

    fd, tmp = tempfile.mkstemp(prefix="brv-index-")
    os.close(fd)
    index = Path(tmp)
    try:
        index.unlink()
        stage.read_commit(repo, "HEAD" if parent else None, index_file=index)
        spec = repo.commit_pathspec()  # knowledge plus .brv/config.yaml and .brv/.gitignore
        stage.copy_staged(repo, spec, index_file=index)
        _name_checked_tree(repo, env, index)
        git_commit(repo, message, index_file=index, env=env)
        stage.unstage(repo, spec)
    finally:
        _drop_checked_link(index)
        index.unlink(missing_ok=True)
        # the pre-commit's note for commit-msg, when commit-msg did not run (refused, absent)
        Path(tmp + TRAILERS_SUFFIX).unlink(missing_ok=True)


class LogEntry(NamedTuple):
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
    return tuple(LogEntry(*row) for row in git.newest(repo.workdir, target, spec, limit))
