"""``brv hydrate PATH`` (seed 003): the context one node of the tree needs, within a budget.

Three parts, as the seed names them:
- global: the project brief (brain layer 0) and the root ``_index.md`` overview;
- parent intent: each ancestor's ``context.md`` purpose, and its digest when it has one;
- local: the node's own purpose and digest, then its entries best first (importance,
  maturity, recency); a child folder that has a digest stands in for its raw entries.

Parts are taken in order of importance until the budget is spent, so the least important
are the ones dropped: parent intents (nearest first), the node's own context, the brief,
local entries by score, and last the root overview. The document shows the kept parts in
reading order (global, parents, local).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.errors import OptionError
from brv_vc.format.tokens import count_tokens, truncate_to_tokens
from brv_vc.services.brain import Item, load_pools, project_brief
from brv_vc.services.hydrate.nodes import (
    NodeContext,
    node_path,
    read_context,
    without_frontmatter,
)
from brv_vc.tree.layout import SUMMARY_FILE
from brv_vc.tree.project import Project

DEFAULT_BUDGET = 4000
MIN_BUDGET = 100
BRIEF_SHARE = 0.25  # the brief takes at most a quarter of the budget
OVERVIEW_TOKENS = 300


@dataclass(frozen=True)
class LocalItem:
    """An entry, or a child folder's digest, in the node's local context."""

    path: str
    title: str
    text: str
    digest: bool = False
    stale: bool = False  # its linked code changed since it was written (brv stale)


@dataclass(frozen=True)
class HydrateResult:
    """The hydrated context of one node."""

    path: str
    budget: int
    tokens: int
    document: str
    brief: str
    overview: str
    parents: tuple[NodeContext, ...]
    node: NodeContext
    local: tuple[LocalItem, ...]
    dropped: int  # parts that did not fit


class _Budget:
    def __init__(self, tokens: int) -> None:
        self.left = tokens
        self.dropped = 0

    def take(self, text: str) -> bool:
        cost = count_tokens(text)
        if not text or cost > self.left:
            self.dropped += bool(text)
            return False
        self.left -= cost
        return True


def _ancestors(path: str) -> list[str]:
    parts = path.split("/") if path else []
    return ["/".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]  # nearest first


def _overview(project: Project) -> str:
    try:
        text = (project.tree / SUMMARY_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""
    return truncate_to_tokens(without_frontmatter(text).strip(), OVERVIEW_TOKENS)


def _local_items(project: Project, path: str, items: tuple[Item, ...]) -> list[LocalItem]:
    """Entries best first; entries under a child folder with a digest give way to it."""
    out: list[LocalItem] = []
    digested: dict[str, str] = {}
    for item in items:
        rel = item.path[len(path) + 1:] if path else item.path
        folders = rel.split("/")[:-1]
        child = "/".join(filter(None, [path, folders[0]])) if folders else ""
        if child and child not in digested:
            digested[child] = read_context(project, child).digest
        if child and digested[child]:
            if child not in {o.path for o in out}:
                out.append(LocalItem(child, child.rsplit("/", 1)[-1], digested[child], True))
            continue
        out.append(LocalItem(item.path, item.title, item.summary, stale=item.stale))
    return out


def _line(item: LocalItem) -> str:
    if item.digest:
        return f"### {item.path}/ (digest)\n{item.text}\n"
    mark = " · **stale**: its code changed since" if item.stale else ""
    return (f"- **{item.title}** (`{item.path}`{mark})" + (f": {item.text}" if item.text else "")
            + "\n")


def hydrate(project: Project, path: str, now: datetime, *,
            budget: int = DEFAULT_BUDGET) -> HydrateResult:
    """Hydrates the context of a node (a folder; ``""`` is the root).

    Raises:
        UsageError: a budget under ``MIN_BUDGET`` tokens.
        InvalidPathError: a malformed or too deep path, or a file.
        NotFoundError: no such folder.
    """
    if budget < MIN_BUDGET:
        raise OptionError("budget", f"{budget} is too small",
                          hint=f"give at least {MIN_BUDGET} tokens")
    rel = node_path(project, path)
    pool, local_pool = load_pools(project, now, ("", rel))
    room = _Budget(budget - count_tokens(f"# Context for {rel or '(root)'}\n\n"))
    parents = [read_context(project, a) for a in _ancestors(rel)]
    kept_parents = [p for p in parents
                    if room.take(_parent_text(p))]
    node = read_context(project, rel) if rel else NodeContext("", "", "")
    node_text = _node_text(node)
    node_kept = room.take(node_text)
    brief = project_brief(pool, min(room.left, int(budget * BRIEF_SHARE)))
    brief = brief if room.take(brief) else ""
    candidates = _local_items(project, rel, local_pool.items)
    local = [item for item in candidates if room.take(_line(item))]  # take counts the rest
    overview = _overview(project)
    overview = overview if room.take(overview + "\n") else ""
    kept_node = node if node_kept else None
    document = _render(rel, brief, overview, kept_parents, kept_node, local)
    # headings and blank lines were not counted above: trim the least important parts until
    # the document itself fits (the budget is a promise, not an estimate)
    while count_tokens(document) > budget and (local or overview or brief or kept_parents):
        if overview:
            overview = ""
        elif local:
            local.pop()
        elif brief:
            brief = ""
        else:
            kept_parents.pop()
        room.dropped += 1
        document = _render(rel, brief, overview, kept_parents, kept_node, local)
    return HydrateResult(rel, budget, count_tokens(document), document, brief, overview,
                         tuple(kept_parents), node, tuple(local), room.dropped)


def _parent_text(node: NodeContext) -> str:
    text = f"### {node.path}\n{node.purpose}\n" if node.purpose else ""
    return text + (f"Digest: {node.digest}\n" if node.digest else "")


def _node_text(node: NodeContext) -> str:
    parts = [node.purpose, f"Digest: {node.digest}" if node.digest else ""]
    return "\n".join(p for p in parts if p) + "\n" if any(parts) else ""


def _render(path: str, brief: str, overview: str, parents: list[NodeContext],
            node: NodeContext | None, local: list[LocalItem]) -> str:
    out = [f"# Context for {path or '(root)'}\n"]
    if brief or overview:
        out.append("## Global\n")
        out += [brief] if brief else []
        out += [overview + "\n"] if overview else []
    if parents:
        out.append("## Parent intent\n")
        out += [_parent_text(p) for p in reversed(parents)]  # reading order: root first
    if (node is not None and _node_text(node)) or local:
        out.append("## Local\n")
        if node is not None:
            out.append(_node_text(node))
        out += [_line(item) for item in local]
    return "\n".join(part.rstrip("\n") + "\n" for part in out if part.strip())
