"""The whole tree's graph: its most linked entries and the relations among them.

What the interactive graph of ``brv ui`` draws without a place (Obsidian's graph view): the
entries themselves, joined by their real links across domains, not one square per domain.
One grouped scan of ``links`` per state of the tree (``graph._cached``), bounded by
``limit`` nodes, the most linked first, so a tree of 25,000 entries draws its hubs.
"""

from __future__ import annotations

import sqlite3
from collections import Counter

from brv_vc.index.entries import entry_paths, titles
from brv_vc.index.relations import link_counts, resolve
from brv_vc.services.link_graph.model import Edge, Node
from brv_vc.services.link_graph.neighbourhood import edges_among


def whole_nodes(conn: sqlite3.Connection, *, limit: int) -> tuple[list[Node], list[Edge], int]:
    """The ``limit`` most linked entries (links in and out), the relations among them."""
    degree: Counter[str] = Counter(dict.fromkeys(entry_paths(conn), 0))
    targets = Counter[str]()
    for source, target, n in link_counts(conn):
        if source in degree:
            degree[source] += n
        targets[target] += n
    for target, (path, kind) in resolve(conn, targets).items():
        if kind == "entry" and path in degree:
            degree[path] += targets[target]
    ranked = sorted(degree.items(), key=lambda item: (-item[1], item[0]))[:limit]
    named = titles(conn, [p for p, _ in ranked])
    nodes = [Node(p, named[p], "entry", 0, d) for p, d in ranked]
    edges = edges_among(conn, {n.path: "entry" for n in nodes})
    return nodes, edges, max(0, len(degree) - len(ranked))
