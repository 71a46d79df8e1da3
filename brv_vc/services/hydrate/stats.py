"""``brv stats`` (seed 003 "token hygiene"): tokens per node, the average, nodes over limit.

A node is a folder; its tokens are those of the entries directly in it and its
``context.md``. Sizes come from the index (bytes / 4, the project's token rule on ASCII
text), so the stats of a 25,000-entry tree read no file.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from brv_vc.format.tokens import CHARS_PER_TOKEN
from brv_vc.index.listings import sizes
from brv_vc.services.derived import with_index
from brv_vc.tree.project import Project

DEFAULT_LIMIT = 8192  # seed 003's default token limit of a node


@dataclass(frozen=True)
class NodeStats:
    """One folder: its own tokens, its subtree's, and whether it is over the limit."""

    path: str
    entries: int
    tokens: int
    subtree_tokens: int
    over_limit: bool


@dataclass(frozen=True)
class TreeStats:
    """Token hygiene of the whole tree."""

    limit: int
    total_nodes: int
    total_tokens: int
    avg_tokens_per_node: float
    nodes_over_limit: int
    largest: tuple[NodeStats, ...]
    over: tuple[NodeStats, ...]


def tree_stats(project: Project, *, limit: int = DEFAULT_LIMIT, top: int = 10) -> TreeStats:
    """Computes the token statistics of every folder of the tree."""
    rows, _notes = with_index(project, lambda opened: sizes(opened.conn))
    own: dict[str, int] = defaultdict(int)
    entries: dict[str, int] = defaultdict(int)
    for path, kind, size in rows:
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        own[folder] += (size + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN
        entries[folder] += kind == "entry"
    subtree: dict[str, int] = defaultdict(int)
    for folder, tokens in own.items():
        parts = folder.split("/")
        for depth in range(1, len(parts) + 1):
            subtree["/".join(parts[:depth])] += tokens
    nodes = [NodeStats(f, entries[f], own[f], subtree[f], own[f] > limit) for f in sorted(own)]
    total = sum(own.values())
    largest = tuple(sorted(nodes, key=lambda n: (-n.tokens, n.path))[:top])
    over = tuple(n for n in nodes if n.over_limit)
    return TreeStats(limit, len(nodes), total, round(total / len(nodes), 1) if nodes else 0.0,
                     len(over), largest, over)
