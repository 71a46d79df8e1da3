"""What a push would send: the commits and tree paths of ``HEAD`` the remote's tip lacks."""

from __future__ import annotations

from brv_vc.record import NamedTuple
from brv_vc.vc import git
from brv_vc.vc.repo import KnowledgeRepo


class Outgoing(NamedTuple):
    """Commits in ``base..head`` and the tree paths they change (removals included)."""

    commits: int
    paths: tuple[str, ...]


def outgoing(repo: KnowledgeRepo, base: str | None, head: str | None) -> Outgoing:
    """The commits of ``head`` not in ``base`` and the tree paths ``base..head`` changes.

    ``base`` None (the remote has no such branch yet): every commit and path of ``head``.
    """
    if head is None or head == base:
        return Outgoing(0, ())
    span = f"{base}..{head}" if base else head
    from brv_vc.vc.git.log import commit_count

    count = commit_count(repo.workdir, span)
    if not count:
        return Outgoing(0, ())
    if base:
        raw = git.changed_entries(repo.workdir, base, head, repo.prefix or None)
        repo_paths = [path for _, path, _, _ in raw]
    else:
        repo_paths = git.tree_paths(repo.workdir, head, *repo.pathspec())
    paths = (repo.tree_path(p) for p in repo_paths)
    return Outgoing(count, tuple(p for p in paths if p is not None))
