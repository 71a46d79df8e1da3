"""The consolidate pass of a dream: which entries changed, decided and applied in order.

A first dream at 100,000 entries changes every entry and outlasts any budget (issue 24). The
pass goes in path order and applies each entry's decisions as they are found; when it is
cut, the last entry done is the cursor (``consolidateCursor`` in dream state) and the next
dream goes on after it, never from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from brv_vc.errors import BrvError
from brv_vc.index.dream_hits import StoredHits
from brv_vc.index.terms import query_terms
from brv_vc.services.dream import consolidate
from brv_vc.tree.layout import ARCHIVE_DIR
from brv_vc.tree.project import Project

Op = dict[str, Any]
SCAN_KEY = "scanCursor"  # dream state: how far the last ``brv dream scan`` got


def changed_entries(project: Project, entries: Sequence[str], state: dict[str, Any],
             hints: Sequence[dict[str, Any]]) -> list[str]:
    """Entries modified since the last dream ended (all before the first), plus hinted ones.

    When the last consolidate pass was cut (``consolidateCursor``), the entries past its
    cursor are still owed from the time that pass started from; those before it only when
    modified since the last dream.
    """
    wall = state.get("lastDreamWall")
    cursor = state.get("consolidateCursor")
    after, since = (cursor["after"], cursor["since"]) if cursor else ("", wall)
    if not isinstance(since, (int, float)):
        since = None
    if not isinstance(wall, (int, float)):
        wall = None
    found = []
    for rel in entries:
        bound = since if rel > after else wall
        if bound is None:
            found.append(rel)
            continue
        try:
            if (project.tree / rel).stat().st_mtime > bound:
                found.append(rel)
        except OSError:
            continue
    known = set(entries)
    found += [str(h["file"]) for h in hints if h.get("file") in known]
    return sorted(set(found))


BATCH = 20  # changed entries per provider call (the default engine applies each at once)
# Why: SKIP decisions change nothing, so the default engine logs a run of them in one step
# (a first pass at 100,000 entries is mostly SKIPs). Any other decision is applied at once.
SKIPS = 50


def consolidate_pass(project: Project, entries: Sequence[str], changed: Sequence[str],
                 hints: Sequence[dict[str, Any]], conn: Any, over: Callable[[], str],
                 run_all: Callable[[str, Sequence[Op]], str], cursor: dict[str, Any] | None,
                 state: dict[str, Any], batched: bool, count: Callable[[], int],
                 ) -> tuple[str, dict[str, Any] | None]:
    """Detects and applies consolidations entry by entry until done or stopped.

    Returns:
        Why it stopped ("" when the pass finished) and the cursor to keep: None after a
        finished pass, else the last path whose operations were all applied.
    """
    cut: list[str] = []

    def budget_hit() -> bool:
        why = over()
        if why:
            cut.append(why)
        return bool(why)

    since = cursor["since"] if cursor else state.get("lastDreamWall")
    done = cursor["after"] if cursor else ""
    pending: list[tuple[str | None, list[Op]]] = []

    def flush() -> str:
        nonlocal done
        ops = [op for _, found in pending for op in found]
        before = count()
        why = run_all("consolidate", ops) if ops else ""
        # with the default engine each op is applied as given: the paths whose operations
        # all ran are finished; a provider may reshape a batch, so only a whole one counts
        applied = len(ops) if not why else (0 if batched else count() - before)
        total = 0
        for path, found in pending:
            total += len(found)
            if total > applied:
                break
            if path is not None and path > done:
                done = path
        pending.clear()
        return why

    stopped = ""
    hits = StoredHits(conn)
    for path, found in consolidate.steps(project, entries, changed, hints,
                                         lambda rel, entry: cross_hits(hits, rel, entry.title),
                                         budget_hit):
        pending.append((path, found))
        skips = not batched and all(op["action"] == "SKIP" for op in found)
        if len(pending) >= (BATCH if batched else SKIPS if skips else 1):
            stopped = flush()
            if stopped:
                break
    if not stopped and pending:
        stopped = flush()
    stopped = stopped or (cut[0] if cut else "")
    return stopped, ({"after": done, "since": since} if stopped else None)


def cross_hits(hits: Any, rel: str, title: str) -> list[str]:
    """FTS5 candidates in other domains for one changed entry.

    One ranked FTS5 match per word of its title (its words together would need all of them
    in one entry). A plain MATCH, not ``brv search``: no fuzzy expansion and no lifecycle
    scoring, which cost ~50 ms a query at 25,000 entries; these are only candidates.
    """
    domain = rel.split("/", 1)[0]
    found: dict[str, float] = {}
    try:
        words = query_terms(title)
    except BrvError:  # an unsearchable title only loses candidates
        return []
    for word in words[:4]:
        for path, score in hits.get(word, 8, exclude=domain + "/"):
            if path != rel and not path.startswith(ARCHIVE_DIR + "/"):
                found[path] = found.get(path, 0.0) + score
    ranked = sorted(found, key=lambda p: (-found[p], p))
    return ranked[: consolidate.CROSS_HITS]


def applied_cursor(state: dict[str, Any], finished: bool,
                   ) -> tuple[dict[str, Any] | None, bool]:
    """The consolidate cursor after ``brv dream apply``, and whether the pass moved.

    The last scan's cursor when the decisions ran to the end and no dream moved the cursor
    since that scan; else the cursor stays (and so does the time the pass counts changes
    from): decisions made without a scan, or cut by the budget, never lose the entries the
    pass still owes.
    """
    cursor = state.get("consolidateCursor")
    record = state.get(SCAN_KEY)
    if (finished and isinstance(record, dict) and record.get("from") == cursor
            and record.get("wall") == state.get("lastDreamWall")):
        return record.get("to"), True
    return cursor, False
