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
        for edge in edges:
            for near, far in ((edge.source, edge.target), (edge.target, edge.source)):
                if far in members and near in angle and far not in parent:
                    parent[far] = angle[near]
        ring = sorted(ring, key=lambda n: (parent.get(n.path, 7.0), -n.degree, n.path)) if hop > 1 else ring
        radius = _radius(len(ring), 150.0 if hop == 1 else radius + _GAP)
        step = 2 * math.pi / len(ring)
        offset = -math.pi / 2 if hop == 1 else min(parent.values(), default=-math.pi / 2)
        for i, node in enumerate(ring):
            theta = offset + i * step
            x, y = radius * math.cos(theta), radius * math.sin(theta)
            placed[node.path] = replace(node, x=round(x, 1), y=round(y, 1))
            angle[node.path] = theta
    return [placed[node.path] for node in nodes]
