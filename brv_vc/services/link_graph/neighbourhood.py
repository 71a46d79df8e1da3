"""Which nodes and edges a picture shows, read from the index's ``links`` and ``docs`` tables.

Every query is bounded by the picture, never by the tree: an entry's neighbours come from
the ``links_source`` and ``links_target`` indexes, a folder's entries from a range of
``docs.path``. Nodes are ranked nearest first, then most linked, then by path, so the same
tree always gives the same picture.
"""

from __future__ import annotations

import sqlite3

from brv_vc.index.entries import siblings as siblings_of
from brv_vc.index.entries import titles
from brv_vc.index.relations import backlinks, degrees, forward, forward_of, resolve
from brv_vc.services.link_graph.model import Edge, Node


def neighbours(conn: sqlite3.Connection, path: str) -> set[tuple[str, str]]:
    """The nodes an entry names or is named by, as (path, kind)."""
    found = set(resolve(conn, (link.target for link in forward(conn, path))).values())
    found.update((source, "entry") for source in backlinks(conn, path))
    found.discard((path, "entry"))
    return found


def edges_among(conn: sqlite3.Connection, nodes: dict[str, str]) -> list[Edge]:
    """Relation lines between the picture's nodes (``nodes``: path -> kind), one per pair."""
    sources = sorted(p for p, kind in nodes.items() if kind == "entry")
    rows = [(link.source, link.target)
            for links in forward_of(conn, sources).values() for link in links]
    where = resolve(conn, (target for _, target in rows))
    pairs = {(s, where[t][0]) for s, t in rows if t in where and where[t][0] in nodes}
    return [Edge(s, t, "relation") for s, t in sorted(pairs) if s != t]


def rank(conn: sqlite3.Connection, found: dict[str, str]) -> list[tuple[str, str, int]]:
    """Candidates (path -> kind) as (path, kind, degree), most linked first, then by path."""
    degree = degrees(conn, [p for p, kind in found.items() if kind == "entry"])
    ranked = [(path, kind, degree.get(path, 0)) for path, kind in found.items()]
    ranked.sort(key=lambda item: (-item[2], item[0]))
    return ranked


def entry_nodes(
    conn: sqlite3.Connection, path: str, *, limit: int, hops: int
) -> tuple[list[Node], list[Edge], int]:
    """An entry's neighbourhood: up to ``limit`` nodes within ``hops`` links, and the rest's count.

    The entry's folder joins as a node (its way to the folder's picture); when the entry has
    few links, a few entries of the same folder fill the picture so it says something.
    """
    chosen: dict[str, tuple[str, int, int]] = {path: ("entry", 0, degrees(conn, [path])[path])}
    frontier = [path]
    more = 0
    for hop in range(1, hops + 1):
        found: dict[str, str] = {}
        for node in frontier:
            if chosen[node][0] == "entry":
                found.update(dict(neighbours(conn, node)))
        fresh = {p: k for p, k in found.items() if p not in chosen}
        ranked = rank(conn, fresh)
        room = max(0, limit - len(chosen))
        for p, kind, degree in ranked[:room]:
            chosen[p] = (kind, hop, degree)
        more += max(0, len(ranked) - room)
        frontier = [p for p, _, _ in ranked[:room]]
    edges = edges_among(conn, {p: v[0] for p, v in chosen.items()})
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    if folder and folder not in chosen and len(chosen) < limit:
        chosen[folder] = ("folder", 1, 0)
    if folder in chosen and chosen[folder][0] == "folder":
        edges.append(Edge(folder, path, "in"))
        if len(chosen) < min(limit, 8):
            siblings = [p for p in siblings_of(conn, folder, path, min(limit, 8) - len(chosen))
                        if p not in chosen]
            for sibling in siblings:
                chosen[sibling] = ("entry", 2, 0)
                edges.append(Edge(folder, sibling, "in"))
    named = titles(conn, [p for p, v in chosen.items() if v[0] == "entry"])
    nodes = [Node(p, named.get(p, p), kind, hop, degree) for p, (kind, hop, degree) in chosen.items()]
    return nodes, edges, more
