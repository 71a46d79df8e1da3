"""Archives across a team: the ``Brv-Archived:`` commit trailer (DESIGN.md).

``_archived/`` is derived and never synced. The commit that deletes an archived entry names it
in a trailer; every other clone reads the deleted blob from that commit's parent and rebuilds
its own ``_archived/`` copy, so archived knowledge stays searchable everywhere.
"""

from __future__ import annotations

import re

from brv_vc.pattern import lazy
from brv_vc.record import NamedTuple
from brv_vc.vc.repo import KnowledgeRepo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path

TRAILER = "Brv-Archived"
_TRAILER_RE = lazy(rf"^{TRAILER}:\s*(\S.*?)\s*$", re.MULTILINE)


def trailer_block(paths: list[str]) -> str:
    """The trailer paragraph naming archived tree paths (empty string for none)."""
    return "\n".join(f"{TRAILER}: {path}" for path in paths)


def with_trailers(message: str, paths: list[str]) -> str:
    """``message`` with a trailer for each path it does not name yet.

    The trailers go before git's comment lines (``#``), which git strips after the hooks ran.
    A message with no text of its own is returned unchanged, so git still aborts an empty
    commit message instead of committing a message made of trailers only.
    """
    lines = message.split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith("#")), len(lines))
    head = "\n".join(lines[:cut]).rstrip()
    new = [p for p in dict.fromkeys(paths) if p not in parse_trailers(message)]
    if not new or not head:
        return message
    tail = "\n".join(lines[cut:])
    return f"{head}\n\n{trailer_block(new)}\n" + (f"\n{tail}" if tail else "")


def parse_trailers(message: str) -> list[str]:
    """The tree paths named by ``Brv-Archived:`` lines of a commit message."""
    return _TRAILER_RE.findall(message)


class RangeWalk(NamedTuple):
    """``git log --boundary TARGET ^OLD``: the commits a merge of TARGET into OLD brings.

    ``commits``: (id, parent ids, message), oldest first. ``borders``: the commits of OLD's
    history those have as parents. Nothing in it: TARGET is in OLD's history (up to date);
    OLD among the borders: a fast-forward; no border: the histories are unrelated.
    """

    commits: tuple[tuple[str, str, str], ...]
    borders: frozenset[str]


def range_walk(repo: KnowledgeRepo, old: str, target: str) -> RangeWalk | None:
    """:class:`RangeWalk` of ``old..target`` from one ``git log``; None when git failed.

    One process answers what ``git merge-base`` and, after a fast-forward, the post-change
    step's ``git log --grep`` (:func:`archived_in_range`) asked apart (~3.5 ms of CPU each at
    25,000 entries).
    """
    from brv_vc.vc.git.log import boundary_walk  # the git log modules load when asked

    walked = boundary_walk(repo.workdir, old, target)
    if walked is None:
        return None  # git failed, or not git's shape: the caller asks merge-base
    commits, borders = walked
    return RangeWalk(tuple(commits), frozenset(borders))


def archived_in_range(repo: KnowledgeRepo, old: str | None, new: str,
                      walk: RangeWalk | None = None) -> list[tuple[str, bytes]]:
    """Entries archived by the commits in ``old..new`` (``old`` None: all of history).

    Args:
        repo: the knowledge repository.
        old: the commit before the pull/merge (excluded), or None.
        new: the commit after it.
        walk: :func:`range_walk` of ``old..new``, when the caller has it (a fast-forward).

    Returns:
        (tree path, the entry's bytes before its deletion), oldest first; an entry present
        again at ``new`` (restored later) is left out.
    """
    found: dict[str, bytes] = {}
    if walk is not None:  # what '--grep' picks: the messages holding the trailer's name
        picked = [(parents, message) for _, parents, message in walk.commits
                  if f"{TRAILER}:" in message]
    else:
        # git picks the few commits with a trailer (a pull of ordinary commits reads no
        # object in process: opening the object store costs ~100 ms)
        from brv_vc.vc.git.log import messages_with

        span = [new, f"^{old}"] if old else [new]
        picked = [(parents, message) for _, parents, message
                  in messages_with(repo.workdir, f"{TRAILER}:", span)]
    for parents, message in picked:
        paths = parse_trailers(message)
        if not paths or not parents.split():
            continue
        for path in paths:
            data = _blob_at(repo.workdir, parents.split()[0], repo.repo_path(path))
            if data is not None:
                found[path] = data
    return [
        (path, data) for path, data in found.items()
        if _blob_at(repo.workdir, new, repo.repo_path(path)) is None
    ]


def archived_at(repo: KnowledgeRepo, rev: str, paths: list[str]) -> list[tuple[str, bytes]]:
    """Entries among ``paths`` that the history of ``rev`` leaves archived.

    Trigger: entries left the tree through a change whose range names no archive (``reset
    --hard`` back over a restore, a checkout of a branch that archived them before a restore
    elsewhere). Why: the local archive must match what history says (DESIGN.md "Archives
    across a team"), wherever the archiving commit lies. Outcome: a path counts as archived
    when the last commit reachable from ``rev`` that touched it carries its trailer.

    Cost: one ``git log --grep`` over the messages, then one ``git log -1 -- path`` per path
    named by a trailer; paths no trailer names cost nothing more.

    Args:
        repo: the knowledge repository.
        rev: the commit the tree now stands on.
        paths: tree paths that just left the tree.

    Returns:
        (tree path, the entry's bytes before its archive), in the order of ``paths``.
    """
    wanted = set(paths)
    if not wanted:
        return []
    from brv_vc.vc.git.log import last_change, messages_with

    named: dict[str, set[str]] = {}
    for sha, _, message in messages_with(repo.workdir, f"{TRAILER}:", [rev]):
        for path in parse_trailers(message):
            if path in wanted:
                named.setdefault(path, set()).add(sha)
    found: list[tuple[str, bytes]] = []
    for path in dict.fromkeys(paths):
        if path not in named:
            continue
        sha, parents = last_change(repo.workdir, rev, repo.repo_path(path))
        if sha not in named[path] or not parents:
            continue  # deleted plainly after its archive, or restored and deleted again
        data = _blob_at(repo.workdir, parents.split()[0], repo.repo_path(path))
        if data is not None:
            found.append((path, data))
    return found


def _blob_at(repo: Path, rev: str, path: str) -> bytes | None:
    """``git.objects.blob_at``, imported only when an archive's text is read."""
    from brv_vc.vc.git.objects import blob_at

    return blob_at(repo, rev, path)
