"""Merging: a merge into HEAD, the common base of commits, a merge's abort, a half-done merge.

Each function runs in a :class:`process.Worktree` (``vc/repo.KnowledgeRepo``), whose ``git``
adds the project's identity to the merge commit and words a failure through
:func:`errors.translate`. A merge that stops on conflicts is no failure here: its process
is returned for the caller to read (conflicts, paths git refused to overwrite).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from brv_vc.vc.git.process import Completed, Worktree


def merge(repo: Worktree, target: str, message: str, *, unrelated: bool = False,
          env: Mapping[str, str] | None = None) -> Completed:
    """``git merge`` of commit ``target`` into HEAD, committed with ``message`` if clean.

    ``unrelated``: histories without a common commit are joined. ``env``: the environment
    git and its hooks get. --no-stat: git's diffstat (with rename detection, every changed
    blob read: ~8 ms of CPU for 100 entries at 25,000) would go to a pipe nobody reads.
    """
    extra = ["--allow-unrelated-histories"] if unrelated else []
    return repo.git("merge", "--no-edit", "--no-stat", *extra, "-m", message, target,
                    check=False, env=dict(env) if env is not None else None)


def abort(repo: Worktree, *, check: bool = True) -> None:
    """Ends the merge in progress, back to HEAD's files (``merge --abort``).

    ``check``: False leaves a failure unsaid (a recovery that restores the files itself).

    Raises:
        GitError: (with ``check``) git refused, as "merge --abort failed: ...".
    """
    repo.git("merge", "--abort", check=check, what="merge --abort")


def base(repo: Worktree, *revs: str) -> str | None:
    """The best common ancestor of ``revs`` (``merge-base``); None when they share none."""
    out = repo.git_ok("merge-base", *revs)
    return out.strip() or None if out else None

# A merge git left half-done: ``git merge`` writes the index, drops ``index.lock``, then its
# strategy takes the lock again. When another process holds the lock at that moment, git 2.39
# prints "error: Unable to write index.", yet writes MERGE_HEAD and a MERGE_MSG whose
# ``# Conflicts:`` list is empty, and exits 1 ("fix conflicts and then commit the result") with
# the index still HEAD's. A ``git commit`` then records HEAD's tree as the merge: the other
# side's changes and deletions silently undone (issue 35). brv's writers wait for a running
# merge (vc/git_index_lock.py); any other process (an editor's git integration, a second
# terminal) can still hold the lock there.


def unapplied_merge(repo: Path, git_dir: Path, index_tree: str | None) -> str | None:
    """The commit whose merge git never applied, or None (the usual case: one ``stat``).

    Such a merge, all of it true: MERGE_HEAD present; MERGE_MSG lists no conflicted path
    (a person who settled every conflict their own way may well commit HEAD's tree);
    nothing unmerged (``index_tree``, the tree the index names, is then not None); the
    index names HEAD's tree; a commit of MERGE_HEAD is not in HEAD; and merging it would
    not give HEAD's tree either (``git merge-tree``: a merge of changes HEAD already holds
    is a real, empty merge).

    Args:
        repo: the work tree's top (where git runs).
        git_dir: the repository's git dir (MERGE_HEAD, MERGE_MSG).
        index_tree: the tree id the index to be committed names; None when unknown.
    """
    from brv_vc.vc.git.process import run
    from brv_vc.vc.git.refs import is_ancestor

    try:
        heads = (git_dir / "MERGE_HEAD").read_text(encoding="ascii", errors="replace").split()
    except OSError:
        return None
    if not heads or index_tree is None or _conflicts_listed(git_dir):
        return None
    head_tree = run(["rev-parse", "-q", "--verify", "HEAD^{tree}"], repo, check=False)
    if head_tree.returncode != 0 or head_tree.stdout.strip() != index_tree:
        return None
    for head in heads:
        if is_ancestor(repo, head, "HEAD"):
            continue
        merged = run(["merge-tree", "--write-tree", "--no-messages", "HEAD", head], repo,
                     check=False)
        # exit 0: a clean merge, its tree first; 1: conflicts; other: git older than 2.38
        # (no --write-tree) or a broken repository, and the other signs stand alone
        if merged.returncode == 0 and merged.stdout.split()[:1] == [index_tree]:
            continue  # a real merge that changes nothing
        return head
    return None


def _conflicts_listed(git_dir: Path) -> bool:
    """True when MERGE_MSG lists a conflicted path under git's ``# Conflicts:`` line."""
    try:
        text = (git_dir / "MERGE_MSG").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    listing = False
    for line in text.splitlines():
        if line.lstrip("# ").startswith("Conflicts:"):
            listing = True
        elif listing and line.removeprefix("#").startswith("\t") and line.strip("#\t "):
            return True
    return False
