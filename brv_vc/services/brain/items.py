"""The brain's items: entries of the tree with their signals, kind and score (seed 004).

Reading 25,000 entry files for one brain would cost seconds, so the index and the scoring
sidecar choose first: every entry is scored from its sidecar row alone, and only the best
``MAX_READ`` are read and parsed for their summary, tags and facts.
"""

from __future__ import annotations

import math
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from brv_vc.clock import days_between
from brv_vc.errors import BrvError
from brv_vc.format.entry import Entry, parse_entry
from brv_vc.index import listings
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.lifecycle.sidecar import ensure_schema
from brv_vc.tree.project import Project

MAX_READ = 200  # entries read and parsed for one brain: more than its 3,500 tokens can show
DAY = 86_400.0
# maturity as confidence (seed 004 scores by a 0-1 confidence)
CONFIDENCE = {scoring.DRAFT: 0.6, scoring.VALIDATED: 0.8, scoring.CORE: 1.0}
# words in tags, fact categories and folder names that tell an item's kind
KIND_WORDS = {
    "decision": ("decision", "decisions", "adr", "adrs", "decided"),
    "bug": ("bug", "bugs", "incident", "incidents", "issue", "issues", "fix", "fixes",
            "regression", "gotcha", "gotchas"),
    "todo": ("todo", "todos", "task", "tasks", "pending", "backlog"),
    "convention": ("convention", "conventions", "style", "rule", "rules", "guideline",
                   "guidelines", "standard", "standards"),
    "architecture": ("architecture", "arch", "design", "stack", "infrastructure", "infra"),
}


@dataclass(frozen=True)
class Item:
    """One entry as the brain sees it."""

    path: str
    title: str
    summary: str
    tags: tuple[str, ...]
    updated_at: str  # the frontmatter's updatedAt: half of the ETag pair
    kind: str
    importance: float  # brv's one scale: 0-100, decayed, one decimal (as show and manifest)
    confidence: float
    age_days: float
    score: float
    archived: bool = False
    stale: bool = False  # its linked code changed since it was written (services.code_links)


def importance5(importance: float) -> int:
    """Maps brv's 0-100 importance to seed 004's 1-5 scale (the default 50 is 3).

    Only seed 004's layer rules use it; people and agents read the 0-100 figure.
    """
    return max(1, min(5, round(1 + importance / 25)))


def recency(age_days: float) -> float:
    """Seed 004's recency: 1.0 today, falling linearly to 0.1 at 90 days and after."""
    return max(0.1, 1.0 - 0.9 * min(age_days, 90.0) / 90.0)


def kind_of(entry: Entry, path: str) -> str:
    """The item's kind from its tags, fact categories and folders; ``fact`` when none says."""
    words = {t.lower() for t in entry.tags}
    words |= {f.category.lower() for f in entry.facts() if f.category}
    words |= set(path.lower().split("/")[:-1])
    for kind, names in KIND_WORDS.items():
        if words & set(names):
            return kind
    return "fact"


@dataclass(frozen=True)
class Pool:
    """What the brain chooses from: the items read, and how many entries the tree holds."""

    items: tuple[Item, ...]
    entries: int
    archived: int


def gather_under(project: Project, index: sqlite3.Connection, state: sqlite3.Connection,
                 now: float, prefixes: Sequence[str]) -> tuple[Pool, ...]:
    """Scores every entry from the sidecar and reads the best ``MAX_READ`` of each folder.

    One pass over the index and the sidecar for all the folders. Each pool holds the best
    entries under its own folder (the tree's best may hold none of a quiet folder's); an
    entry in several pools is read once.

    Args:
        project: the project.
        index: an open, synced ``index.db``.
        state: ``brv.db`` (the scoring sidecar).
        now: the clock, epoch seconds.
        prefixes: the folders ("" for the whole tree).

    Returns:
        The pools, in the order of ``prefixes``, each best first.
    """
    unders = [f"{p}/" if p else "" for p in prefixes]
    common = unders[0] if len(set(unders)) == 1 else ""  # several folders: read them all
    rows = listings.entries_and_stubs(index, common)
    ensure_schema(state)
    # one pass over the sidecar in plain floats: 25,000 Signals objects would cost more
    # than everything else the brain does (scoring.at is the reference for this math)
    stored = sidecar.every_row(state)
    ranked = []
    for path, kind, updated in rows:
        if kind != "entry":
            continue
        base, maturity, updated_at, scored_at = stored.get(
            path, (scoring.DEFAULT_IMPORTANCE, scoring.DRAFT, updated or now, updated or now))
        importance = base * scoring.DAILY_DECAY ** days_between(scored_at, now)
        maturity = scoring.next_maturity(maturity, importance)
        age = days_between(updated_at, now)
        score = (importance5(importance) / 5) * CONFIDENCE[maturity] * recency(age)
        ranked.append((-score, path, importance, maturity, age, score))
    ranked.sort()
    read: dict[str, Item | None] = {}
    pools = []
    for under in unders:
        mine = [r for r in ranked if r[1].startswith(under)]
        for _, path, importance, maturity, age, score in mine[:MAX_READ]:
            if path not in read:
                read[path] = _item(project, path, importance, maturity, age, score)
        items = [item for r in mine[:MAX_READ] if (item := read[r[1]]) is not None]
        stubs = sum(1 for path, kind, _ in rows if kind == "archive_stub"
                    and path.startswith(under))
        pools.append(Pool(tuple(items), len(mine), stubs))
    return tuple(pools)


def _item(project: Project, path: str, importance: float, maturity: str, age: float,
          score: float) -> Item | None:
    try:
        entry = parse_entry(project.path_of(path).read_bytes(), file=path)
    except (OSError, BrvError):
        return None  # changed or broken since the sync: the index lists it as a problem
    return Item(
        path=path, title=entry.title, summary=entry.summary, tags=entry.tags,
        updated_at=entry.updated_at, kind=kind_of(entry, path),
        importance=round(importance, 1), confidence=CONFIDENCE[maturity], age_days=age,
        score=score, archived=maturity == scoring.DRAFT
        and importance < scoring.ARCHIVE_THRESHOLD)


def age_text(days: float) -> str:
    """A short age: ``today``, ``3d``, ``5w``, ``4mo``."""
    if days < 1:
        return "today"
    if days < 14:
        return f"{math.floor(days)}d"
    if days < 60:
        return f"{math.floor(days / 7)}w"
    return f"{math.floor(days / 30)}mo"
