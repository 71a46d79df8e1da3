"""``brv brain``: the layered, token-budgeted project document of seed 004.

Layer 0 is the project brief (no LLM), layer 1 active knowledge, layer 2 reference
knowledge, layer 3 what is left to search. Each layer fills its budget with its best items
and cuts at line boundaries, so the document never exceeds the budget. The ETag
(``brainHash``) is the seed's truncated SHA-256 of the sorted ``path:updatedAt`` pairs of
the items shown; a matching ``if_none_match`` answers "not modified" before the document
is joined.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from brv_vc.errors import OptionError
from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain.items import Item, Pool, age_text, importance5
from brv_vc.services.brain.pool import load_pool
from brv_vc.tree.project import Project

DEFAULT_BUDGET = 6000
STALE = " · **stale**: its code changed since"  # the mark of an item (brv stale)
LAYER_SHARES = (500, 1500, 2000)  # of 6,000 (seed 004): scaled with the budget
MIN_BUDGET = 200
# the title and the footer: below 6,000 the layers are scaled from what they leave, so the
# whole document always fits the budget (above it the seed's 2,000-token headroom does)
RESERVE = 60
GROUPS_L1 = (("decision", "Key Decisions"), ("bug", "Recent Fixes & Known Issues"),
             ("todo", "Pending Tasks"), ("convention", "Conventions"),
             ("fact", "Recent Work"), ("architecture", "Architecture"))
GROUPS_L2 = (("decision", "Decisions"), ("convention", "Conventions"),
             ("architecture", "Architecture"), ("bug", "Known Issues"), ("todo", "Tasks"),
             ("fact", "Reference"))


@dataclass(frozen=True)
class BrainResult:
    """The brain document, or "not modified"."""

    brain_hash: str
    not_modified: bool
    document: str
    token_estimate: int
    budget: int
    items_loaded: int  # items of layers 1 and 2
    layers: tuple[int, int, int]  # tokens used by layers 0, 1, 2
    entries: int  # entries in the tree
    left_to_search: int  # entries not shown (layer 3 and what the budget left out)
    paths: tuple[str, ...]  # the items shown, in order
    stale: tuple[str, ...] = ()  # the items shown whose linked code changed since (brv stale)


def budgets(total: int) -> tuple[int, int, int]:
    """The layer budgets for a total: seed 004's 500 / 1,500 / 2,000 of 6,000, scaled."""
    scale = total / DEFAULT_BUDGET
    return tuple(int(share * scale) for share in LAYER_SHARES)  # type: ignore[return-value]


def layer_of(item: Item) -> int:
    """Seed 004's layer rules, with brv's signals (importance 1-5, age in days)."""
    if item.archived:
        return 3
    age, imp = item.age_days, importance5(item.importance)
    if (
        (age <= 30 and imp >= 3)
        or (item.kind == "decision" and age <= 30)
        or (item.kind == "bug" and (imp >= 4 or age <= 7))
        or item.kind == "todo"
        or (item.kind == "convention" and age <= 14)
        or (imp >= 4 and age <= 60)
    ):
        return 1
    if item.confidence < 0.4 and age > 14:
        return 3
    return 2


def _one_line(text: str, limit: int = 160) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rsplit(" ", 1)[0] + "…"


def _l1_line(item: Item) -> str:
    tags = f" · tags {', '.join(item.tags[:4])}" if item.tags else ""
    summary = f": {_one_line(item.summary)}" if item.summary else ""
    return (f"- **{item.title}**{summary} (`{item.path}` · confidence {item.confidence:.1f}"
            f" · importance {item.importance:.1f}{tags} · {age_text(item.age_days)}"
            f"{STALE if item.stale else ''})")


def _l2_line(item: Item) -> str:
    summary = f": {_one_line(item.summary, 120)}" if item.summary else ""
    return (f"- **{item.title}**{summary} (`{item.path}` · {item.confidence:.1f}"
            f"{STALE if item.stale else ''})")


class _Layer:
    """Lines added while they fit the layer's token budget; an item is all or nothing."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.used = 0
        self.lines: list[str] = []
        self.shown: list[Item] = []

    def add(self, lines: Sequence[str], item: Item | None = None) -> bool:
        cost = sum(count_tokens(line + "\n") for line in lines)
        if self.used + cost > self.budget:
            return False
        self.lines.extend(lines)
        self.used += cost
        if item is not None:
            self.shown.append(item)
        return True


def _grouped(layer: _Layer, title: str, items: Sequence[Item],
             groups: Sequence[tuple[str, str]], line: Callable[[Item], str]) -> None:
    if not items or not layer.add([f"## {title}", ""]):
        return
    for kind, name in groups:
        members = [i for i in items if i.kind == kind]
        if not members or not layer.add([f"### {name}"]):
            continue
        for item in members:
            layer.add([line(item)], item)
        layer.add([""])


def _brief(pool: Pool, budget: int) -> _Layer:
    layer = _Layer(budget)
    items = [i for i in pool.items if not i.archived]
    by_kind = {kind: [i for i in items if i.kind == kind] for kind in ("architecture",
                                                                        "decision", "convention")}
    layer.add(["## Project Brief", ""])
    stack = [i.title for i in by_kind["architecture"][:3]]
    if stack:
        layer.add([f"**Stack**: {_one_line('; '.join(stack))}"])
    decisions = sorted(by_kind["decision"], key=lambda i: (-importance5(i.importance), -i.score))[:3]
    if decisions and layer.add(["**Key decisions**:"]):
        for item in decisions:
            layer.add([f"- {item.title}" + (f": {_one_line(item.summary, 100)}"
                                              if item.summary else "")])
    conventions = by_kind["convention"][:5]
    if conventions and layer.add(["**Conventions**:"]):
        for item in conventions:
            layer.add([f"- {_one_line(item.title, 100)}"])
    areas = Counter("/".join(i.path.split("/")[:2]) for i in items if i.age_days <= 14)
    if areas:
        layer.add(["**Active areas** (14 days): " + ", ".join(
            f"{area} ({n})" for area, n in sorted(areas.items(), key=lambda a: (-a[1], a[0]))[:5])])
    bugs = sum(1 for i in items if i.kind == "bug")
    todos = sum(1 for i in items if i.kind == "todo")
    layer.add([f"**Open issues**: {bugs} known issues, {todos} pending tasks", ""])
    return layer


def project_brief(pool: Pool, budget: int) -> str:
    """Layer 0 alone (the project brief) within ``budget`` tokens: for hydration and exports."""
    return "\n".join(_brief(pool, budget).lines).strip() + "\n"


def brain_hash(items: Sequence[Item]) -> str:
    """Seed 004's ETag: a truncated SHA-256 of the sorted ``path:updatedAt`` pairs.

    A stale item's pair ends ``:stale``: its mark changes the document, so the ETag too.
    """
    pairs = sorted(f"{i.path}:{i.updated_at}" + (":stale" if i.stale else "") for i in items)
    return hashlib.sha256("|".join(pairs).encode("utf-8")).hexdigest()[:16]


def assemble(project: Project, now: datetime, *, budget: int = DEFAULT_BUDGET,
             if_none_match: str | None = None) -> BrainResult:
    """Assembles the brain of a project.

    Args:
        project: the project.
        now: the clock.
        budget: the total token budget (layers get 500 / 1,500 / 2,000 of every 6,000).
        if_none_match: a ``brainHash`` the caller holds; when it still matches, the result
            is "not modified" and carries no document.

    Returns:
        The brain.

    Raises:
        UsageError: a budget under ``MIN_BUDGET`` tokens.
    """
    if budget < MIN_BUDGET:
        raise OptionError("budget", f"{budget} is too small for a brain",
                          hint=f"give at least {MIN_BUDGET} tokens (the default is "
                               f"{DEFAULT_BUDGET})")
    pool = load_pool(project, now)
    b0, b1, b2 = budgets(budget - RESERVE if budget < DEFAULT_BUDGET else budget)
    brief = _brief(pool, b0)
    active = _Layer(b1)
    reference = _Layer(b2)
    layered = [(layer_of(i), i) for i in pool.items]
    _grouped(active, "Active Knowledge", [i for n, i in layered if n == 1], GROUPS_L1, _l1_line)
    _grouped(reference, "Reference Knowledge", [i for n, i in layered if n == 2], GROUPS_L2,
             _l2_line)
    shown = [*active.shown, *reference.shown]
    digest = brain_hash(shown)
    left = pool.entries - len(shown)
    result = BrainResult(brain_hash=digest, not_modified=False, document="", token_estimate=0,
                         budget=budget, items_loaded=len(shown),
                         layers=(brief.used, active.used, reference.used),
                         entries=pool.entries, left_to_search=left,
                         paths=tuple(i.path for i in shown),
                         stale=tuple(i.path for i in shown if i.stale))
    if if_none_match is not None and if_none_match == digest:
        return replace(result, not_modified=True)
    footer = (f"---\n{left} more entries (and {pool.archived} archived) are in the tree: "
              "`brv search \"...\"` or `brv query \"...\"` finds them.\n")
    document = "\n".join(["# Project brain", "", *brief.lines, *active.lines,
                          *reference.lines]).rstrip("\n") + "\n\n" + footer
    return replace(result, document=document, token_estimate=count_tokens(document))
