"""The picture of a folder (a domain or a topic) and of the whole tree's domains.

A folder's entries come from one range of ``docs.path`` and its link counts from ranges of
the ``links`` indexes, so a folder of thousands of entries costs a few grouped queries and
only its most linked entries are drawn. Links that leave the folder are counted per
neighbouring folder (at the folder's own depth) and drawn as one weighted line each.
"""

from __future__ import annotations

import sqlite3
from collections import Counter

from brv_vc.index.entries import domain_sizes, entries_between, titles
from brv_vc.index.relations import between_domains, entering, forms, leaving, resolve
from brv_vc.services.link_graph.model import Edge, Node
from brv_vc.services.link_graph.neighbourhood import edges_among

_OUTSIDE = 8  # neighbouring folders drawn at most (the rest are counted in "more")
_STRONGEST = 2  # lines each domain keeps to the domains it links with most


def _upper(prefix: str) -> str:
    """The smallest string above every path that starts with ``prefix`` (ends in ``/``)."""
    return prefix[:-1] + chr(ord("/") + 1)


def _group(path: str, depth: int) -> str:
    return "/".join(path.split("/")[:depth])


def folder_nodes(
    conn: sqlite3.Connection, folder: str, *, limit: int
) -> tuple[list[Node], list[Edge], int]:
    """A folder's most linked entries, the relations among them, and the folders it links with."""
    low, high = folder + "/", _upper(folder + "/")
    entries = entries_between(conn, low, high)
    degree = Counter(dict.fromkeys(entries, 0))
    outgoing = leaving(conn, low, high)
    incoming = entering(conn, low, high)
    depth = folder.count("/") + 1
    # a target inside the folder is one of its entries (named with or without .md) or no
    # entry at all; only targets outside need the index to tell a folder from a dangling name
    known = forms(entries)
    where = resolve(conn, {t for _, t in outgoing if not t.startswith(low)})
    outside: Counter[str] = Counter()
    for source, target in outgoing:
        degree[source] += 1
        if target in where:  # dangling ones lead nowhere
            outside[_group(where[target][0], depth)] += 1
    for source, target in incoming:
        if target in known:
            degree[known[target]] += 1
        if not source.startswith(low):
            outside[_group(source, depth)] += 1
    outside.pop(folder, None)
    neighbours = sorted(outside.items(), key=lambda item: (-item[1], item[0]))
    shown_out = neighbours[: min(_OUTSIDE, max(0, (limit - 1) // 4))]
    ranked = sorted(degree.items(), key=lambda item: (-item[1], item[0]))
    room = max(0, limit - 1 - len(shown_out))
    named = titles(conn, [p for p, _ in ranked[:room]])
    nodes = [Node(folder, folder, "folder", 0, len(entries))]
    nodes += [Node(p, named[p], "entry", 1, d) for p, d in ranked[:room]]
    nodes += [Node(p, p, "folder", 2, n) for p, n in shown_out]
    edges = [Edge(folder, p, "in") for p, _ in ranked[:room]]
    edges += edges_among(conn, {n.path: n.kind for n in nodes if n.kind == "entry"})
    edges += [Edge(folder, p, "cross", n) for p, n in shown_out]
    more = max(0, len(ranked) - room) + max(0, len(neighbours) - len(shown_out))
    return nodes, edges, more


def tree_nodes(conn: sqlite3.Connection, *, limit: int) -> tuple[list[Node], list[Edge], int]:
    """The tree's domains (top-level folders) and the links between them, counted in SQL."""
    counts = domain_sizes(conn)
    pairs = between_domains(conn)
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    shown = {d for d, _ in ranked[: max(0, limit - 1)]}
    nodes = [Node("", "all domains", "folder", 0, sum(counts.values()))]
    nodes += [Node(d, d, "folder", 1, n) for d, n in ranked if d in shown]
    weights: Counter[tuple[str, str]] = Counter()
    for a, b, n in pairs:
        if a != b and a in shown and b in shown:
            weights[(a, b) if a < b else (b, a)] += n
    # every domain links to every other in a big tree: each keeps its strongest few lines
    strongest = sorted(weights.items(), key=lambda item: (-item[1], item[0]))
    kept: set[tuple[str, str]] = set()
    for domain in sorted(shown):
        mine = [pair for pair, _ in strongest if domain in pair][:_STRONGEST]
        kept.update(mine)
    edges = [Edge(a, b, "cross", n) for (a, b), n in sorted(weights.items()) if (a, b) in kept]
    return nodes, edges, max(0, len(ranked) - len(shown))
