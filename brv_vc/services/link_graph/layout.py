"""A radial layout of our own: the centre in the middle, one ring per hop.

Deterministic (no random seed to keep): the order of the nodes decides their angles. A
ring's radius grows with its node count so that labels, drawn along the radius outwards,
keep ~16 units apart; the next ring starts beyond the longest label of the one inside.
Each outer node sits near the inner node it hangs from, so lines stay short.
"""

from __future__ import annotations

import math
from dataclasses import replace

from brv_vc.services.link_graph.model import Edge, Node

SPACING = 16.0  # page units between neighbouring labels on a ring (the font is 11)
LABEL = 32  # characters a label keeps before an ellipsis
_GAP = LABEL * 6.2 + 40  # the longest label's width (11-unit font) plus a margin


def _radius(count: int, inner: float) -> float:
    return max(inner, count * SPACING / (2 * math.pi))


def _near_parents(wanted: list[float | None], step: float) -> list[float]:
    """Angles close to each node's parent, at least ``step`` apart, in the given order.

    Siblings fan out around their parent; a sweep pushes each angle past the one before.
    When the ring is too full for that, the nodes are spread evenly instead.
    """
    count = len(wanted)
    if all(w is None for w in wanted):  # nothing to follow: evenly, from the top
        return [-math.pi / 2 + i * 2 * math.pi / count for i in range(count)]
    groups: dict[float | None, int] = {}
    for w in wanted:
        groups[w] = groups.get(w, 0) + 1
    seen: dict[float | None, int] = {}
    desired = []
    last = -math.pi / 2
    for w in wanted:
        k = seen[w] = seen.get(w, -1) + 1
        base = w if w is not None else last + step
        desired.append(base + (k - (groups[w] - 1) / 2) * step)
        last = desired[-1]
    out: list[float] = []
    for theta in desired:
        out.append(theta if not out else max(theta, out[-1] + step))
    if count > 1 and out[-1] - out[0] > 2 * math.pi - step:
        return [out[0] + i * 2 * math.pi / count for i in range(count)]
    return out


def radial(nodes: list[Node], edges: list[Edge]) -> list[Node]:
    """Places ``nodes`` (the centre first) on rings by hop; returns them with x and y set."""
    by_hop: dict[int, list[Node]] = {}
    for node in nodes:
        by_hop.setdefault(node.hop, []).append(node)
    angle: dict[str, float] = {}
    placed: dict[str, Node] = {}
    radius = 0.0
    for hop in sorted(by_hop):
        ring = by_hop[hop]
        if hop == 0:
            for node in ring:
                placed[node.path], angle[node.path] = replace(node, x=0.0, y=0.0), 0.0
            continue
        # an outer node follows the first inner node it is linked with (its parent)
        parent: dict[str, float] = {}
        members = {n.path for n in ring}
        inner = {n.path for n in by_hop.get(hop - 1, ())}
        for edge in edges:
            for near, far in ((edge.source, edge.target), (edge.target, edge.source)):
                if far in members and near in inner and far not in parent:
                    parent[far] = angle[near]
        radius = _radius(len(ring), 150.0 if hop == 1 else radius + _GAP)
        if hop == 1:
            # from the top, turned half a step so that two nodes sit left and right
            start = -math.pi / 2 + (math.pi / len(ring) if len(ring) > 1 else math.pi / 2)
            thetas = [start + i * 2 * math.pi / len(ring) for i in range(len(ring))]
        else:
            ring = sorted(ring, key=lambda n: (parent.get(n.path, 7.0), -n.degree, n.path))
            thetas = _near_parents([parent.get(n.path) for n in ring], 2.5 * SPACING / radius)
        for node, theta in zip(ring, thetas, strict=True):
            x, y = radius * math.cos(theta), radius * math.sin(theta)
            placed[node.path] = replace(node, x=round(x, 1), y=round(y, 1))
            angle[node.path] = theta
    return [placed[node.path] for node in nodes]
