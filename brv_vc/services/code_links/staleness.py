"""``brv stale``: entries whose linked files changed after the entry was last written.

One walk of the code repository's history answers for the whole tree (never one
``git log`` per entry): :mod:`history` reads it, :mod:`judge` decides per linked file.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from brv_vc.errors import NotFoundError
from brv_vc.index.listings import entry_updates
from brv_vc.services.code_links import history
from brv_vc.services.code_links.history import descendants_of
from brv_vc.services.code_links.judge import STRENGTH, Timeline, Written, newest
from brv_vc.services.code_links.links import resolve_all
from brv_vc.services.code_links.model import Commit, Outside, StaleEntry, StaleReport
from brv_vc.services.code_links.where import IN_PROJECT, STANDALONE, CodeRepo, require
from brv_vc.tree.project import Project
from brv_vc.vc import git

CACHE = "code-links.json"  # .brv/state: the last answer, for stale_entries


def _written(project: Project, code: CodeRepo, rows: list[history.CommitRow],
             conn: sqlite3.Connection) -> tuple[dict[str, Written], set[str]]:
    """When each entry was last written, and the entries with uncommitted edits (fresh)."""
    if code.mode == IN_PROJECT:
        head = code.tree_prefix + "/"
        found: dict[str, Written] = {}
        for row in rows:  # newest first: the first sight of an entry is its last commit
            for change in row.changes:
                if change[2].startswith(head):  # the path after the change
                    entry = change[2][len(head):]
                    if entry not in found:
                        found[entry] = Written(row.sha, row.time)
        dirty = {p[len(head):] for p in git.work_changes(code.top, code.tree_prefix)
                 if p.startswith(head)}
        return found, dirty
    knowledge_head = git.commit_of(project.tree, "HEAD") if code.mode == STANDALONE else None
    if knowledge_head:
        found = {}
        for row in history.walk_head(project.tree, knowledge_head, project.state,
                                     "knowledge-history.bin"):
            for change in row.changes:
                found.setdefault(change[2], Written(None, row.time))
        return found, set(git.work_changes(project.tree))
    updated = entry_updates(conn)
    return {path: Written(None, stamp) for path, stamp in updated.items()
            if stamp is not None}, set()


def _judgeable(when: Written, code: CodeRepo, shallow: bool, rows: list[history.CommitRow],
               since: str | None) -> bool:
    """False when the history at hand cannot tell whether the entry is stale."""
    if shallow:  # the walk reached the boundary, not the first commit
        if code.mode == IN_PROJECT:
            return when.sha is not None
        return when.time is not None and when.time >= rows[-1].time
    # in-project, an entry outside the walk was written before it (--since REV) or is new
    return code.mode == IN_PROJECT or when.time is not None or since is not None


def _on_first_parents(rows: list[history.CommitRow], head: str | None,
                      written: dict[str, Written]) -> dict[str, Written]:
    """Standalone and unversioned trees: each entry's time -> the code commit current then.

    Knowledge and code live in two histories there, so an entry written at time T is taken
    to describe the code of HEAD's first-parent commit current at T (the newest one with a
    committer time <= T). Ancestry then decides, as in-project: a branch's commits dated
    before T but merged after it still count as changes the entry has not seen.
    """
    parents = {row.sha: row.parents for row in rows}
    times = {row.sha: row.time for row in rows}
    chain: list[str] = []
    sha = head
    while sha is not None and sha in parents:
        chain.append(sha)
        sha = parents[sha][0] if parents[sha] else None
    lowest: list[int] = []  # running minimum of the chain's times, newest first: never rises
    for sha in chain:
        lowest.append(min(times[sha], lowest[-1]) if lowest else times[sha])
    mapped: dict[float, Written] = {}
    out: dict[str, Written] = {}
    for entry, when in written.items():
        if when.sha is not None or when.time is None:
            out[entry] = when
            continue
        if when.time not in mapped:
            at = _first_at_or_below(lowest, when.time)
            mapped[when.time] = Written(chain[at] if at is not None else None, when.time)
        out[entry] = mapped[when.time]
    return out


def _first_at_or_below(lowest: list[int], time: float) -> int | None:
    lo, hi = 0, len(lowest)
    while lo < hi:  # lowest never rises: bisect for the first value <= time
        mid = (lo + hi) // 2
        if lowest[mid] <= time:
            hi = mid
        else:
            lo = mid + 1
    return lo if lo < len(lowest) else None


def _commit(row: history.CommitRow) -> Commit:
    return Commit(row.sha, row.date, row.subject)


def _shallow_note(rows: list[history.CommitRow], unknown: int) -> str:
    oldest = rows[-1]
    return (f"shallow clone: history before {oldest.sha[:12]} ({oldest.date}) is missing; "
            f"{unknown} linked entries were written before it and are not judged (run "
            "'git fetch --unshallow', or pass --since REV within the history you have)")


def stale(project: Project, since: str | None = None, *, gone_only: bool = False,
          ) -> StaleReport:
    """Every entry whose linked files changed, were deleted or renamed after it was written.

    Args:
        project: the project.
        since: only changes after this revision count (``--since REV``); None means
            since each entry was last written.
        gone_only: judge only the entries linking a path the history deleted (gone from
            HEAD, changed in the walk): the others cannot be ``deleted`` (prune's question;
            not remembered as the last answer).

    Returns:
        The stale entries, sorted by path.

    Raises:
        NotFoundError: ``since`` is not a revision of the code repository.
        NotInitializedError: no git repository holds the project.
    """
    from brv_vc.services.derived import with_index

    code = require(project)
    head = git.commit_of(code.top, "HEAD")
    base: str | None = None
    if since is not None:
        base = git.commit_of(code.top, since)
        if base is None:
            raise NotFoundError(
                f"unknown revision {since!r} in the code repository {code.top}",
                hint="pass a commit, branch or tag git knows there (git log --oneline)",
            )
    # --since REV judges as plain stale does (the content the entry saw), then counts only
    # the commits REV does not hold: a change after REV that a later commit undid is no change
    rows = history.walk_head(code.top, head, project.state) if head else []
    shallow = bool(rows) and git.is_shallow(code.top)
    if shallow:  # a boundary commit lists every file as added: not changes, missing history
        rows = [row._replace(changes=()) if not row.parents else row for row in rows]
    blobs = git.tree_blobs(code.top) if head else {}
    timeline = Timeline(rows, {path: blob[:history.BLOB_CHARS] for path, blob in blobs.items()},
                        shallow)
    counted = -1  # every row; with --since, the rows REV does not hold
    if base is not None and rows:
        held = descendants_of(rows, {base: 1})
        counted = sum(1 << i for i, row in enumerate(rows) if row.sha not in held)

    def work(opened: object) -> tuple[list[StaleEntry], list[Outside], int, int, str]:
        conn = opened.conn  # type: ignore[attr-defined]
        gone = timeline.gone if gone_only else None
        resolved = resolve_all(conn, code, timeline.known(), gone)
        if gone_only and not resolved.links:
            return [], [], 0, 0, ""
        written, dirty = _written(project, code, rows, conn)
        if code.mode != IN_PROJECT:
            written = _on_first_parents(rows, head, written)
        by_entry: dict[str, dict[str, None]] = {}  # entry -> its linked paths, unique, in order
        for link in resolved.links:
            by_entry.setdefault(link.entry, {})[link.path] = None
        judge_shallow = shallow and since is None
        timeline.mark({w.sha for e, w in written.items() if w.sha and e in by_entry})
        out: list[StaleEntry] = []
        unknown = 0
        nowhere = Written(None, None)
        commits_of: dict[int, Commit] = {}
        for entry, paths in sorted(by_entry.items()):
            if entry in dirty:
                continue  # being edited: the edit is the update
            when = written.get(entry, nowhere)
            if (judge_shallow or when is nowhere) and not _judgeable(
                    when, code, judge_shallow, rows, since):
                unknown += 1
                continue
            fates = [f._replace(commits=f.commits & counted) for p in paths
                     if (f := timeline.fate_of(p, when)) and f.commits & counted]
            if not fates:
                continue
            commits = fates[0].commits
            strongest = fates[0]
            for fate in fates[1:]:
                commits |= fate.commits
                if STRENGTH[fate.reason] > STRENGTH[strongest.reason]:
                    strongest = fate
            last = newest(commits)
            if last not in commits_of:
                commits_of[last] = _commit(rows[last])
            out.append(StaleEntry(
                entry, strongest.reason, tuple(f.path for f in fates),
                {f.path: f.new_path for f in fates if f.new_path}, commits.bit_count(),
                commits_of[last], {f.path: f.reason for f in fates},
            ))
        outside = [Outside(e, p) for e, p in resolved.outside]
        return out, outside, len(by_entry), unknown, _fingerprint(conn)

    (entries, outside, linked, unknown, fingerprint), notes = with_index(project, work)
    report = StaleReport(
        repository=str(code.top), mode=code.mode, since=since, head=head,
        entries=tuple(entries), linked_entries=linked, commits_walked=len(rows),
        outside=tuple(outside),
        missing_history=_shallow_note(rows, unknown) if shallow and since is None else None,
        notes=tuple(notes),
    )
    if since is None and not gone_only:
        _remember(project, f"{head}:{fingerprint}", report)
    return report


def _fingerprint(conn: sqlite3.Connection) -> str:
    """The tree's fingerprint the index was synced to: with HEAD, the remembered answer's key."""
    from brv_vc.index.db import get_meta

    return get_meta(conn, "fingerprint") or ""


def _remember(project: Project, key: str, report: StaleReport) -> None:
    try:
        path = project.state / CACHE
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {"key": key, "stale": [e.entry for e in report.entries]}
        path.write_text(json.dumps(data), encoding="utf-8")
    except OSError:
        pass  # a cache: never a reason to fail


def stale_entries(project: Project) -> frozenset[str]:
    """The entries currently stale (cheap, cached by HEAD and tree state: for search and brain marks).

    Returns:
        Tree-relative paths of the stale entries (empty when no git repository holds the
        project).
    """
    from brv_vc.services.code_links.where import locate
    from brv_vc.services.derived import with_index

    code = locate(project)
    if code is None:
        return frozenset()
    head = git.commit_of(code.top, "HEAD")
    try:
        data = json.loads(Path(project.state / CACHE).read_text(encoding="utf-8"))
        key, _ = with_index(project, lambda opened: f"{head}:{_fingerprint(opened.conn)}")
        if data.get("key") == key:
            return frozenset(data["stale"])
    except (OSError, ValueError, KeyError, AttributeError):
        pass
    return frozenset(e.entry for e in stale(project).entries)
