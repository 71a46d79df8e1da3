"""The picture as an SVG string: every title, path and address escaped.

Nothing of an entry reaches the page unescaped: labels and tooltips go through
``html.escape`` (``& < > " '``), addresses are percent-encoded and then escaped as
attributes. Colours are presentation attributes, not a ``<style>`` element, so a page's
Content-Security-Policy that forbids inline styles still draws the picture.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from html import escape
from urllib.parse import urlencode

from brv_vc.services.link_graph.layout import LABEL
from brv_vc.services.link_graph.model import Graph, Node

_FILL = {"entry": "#1c7ed6", "folder": "#868e96"}
_CENTRE = "#e8590c"
_LINE = {"relation": "#868e96", "in": "#dee2e6", "cross": "#adb5bd"}


def default_link(node: Node) -> str:
    """The UI's address of a node (``brv ui``): the entry page, or the picture of a folder (``domain=``)."""
    if node.kind == "entry":
        return "/entry?" + urlencode({"path": node.path})
    return "/graph?" + urlencode({"domain": node.path})


def _label(text: str, folder: bool = False) -> str:
    """At most LABEL characters; a folder keeps its end (the name), an entry its start."""
    if len(text) <= LABEL:
        return text
    return "…" + text[1 - LABEL :] if folder else text[: LABEL - 1] + "…"


def _size(node: Node) -> float:
    return 9.0 if node.hop == 0 else 4.0 + min(5.0, math.log2(1 + node.degree))


DENSE = 12  # a ring with more nodes turns its labels along the radius, so they never overlap


def _dense(graph: Graph) -> set[int]:
    """The hops whose ring is crowded enough for labels along the radius."""
    count: dict[int, int] = {}
    for node in graph.nodes:
        count[node.hop] = count.get(node.hop, 0) + 1
    return {hop for hop, n in count.items() if n > DENSE}


def _text(node: Node, r: float, along: bool) -> str:
    """A node's label, beside it on the outer side.

    On a crowded ring it turns along the radius (flipped on the left half so it still reads
    left to right).
    """
    label = escape(_label(node.title, node.kind == "folder"))
    if node.hop == 0:
        return f'<text x="0" y="{r + 14:.1f}" text-anchor="middle" font-weight="bold">{label}</text>'
    degrees = math.degrees(math.atan2(node.y, node.x))
    left = abs(degrees) > 90
    dx = -(r + 4) if left else r + 4
    anchor = "end" if left else "start"
    turn = ""
    if along:
        angle = degrees + 180 if left else degrees
        turn = f' transform="rotate({angle:.1f} {node.x:.1f} {node.y:.1f})"'
    return (f'<text x="{node.x + dx:.1f}" y="{node.y + 4:.1f}" text-anchor="{anchor}"'
            f"{turn}>{label}</text>")


def _bounds(graph: Graph, dense: set[int]) -> tuple[float, float, float, float]:
    """The box around every node and its label."""
    xs, ys = [0.0], [0.0]
    for node in graph.nodes:
        reach = _size(node) + 10 + 6.2 * len(_label(node.title, node.kind == "folder"))
        distance = math.hypot(node.x, node.y)
        if node.hop == 0 or not distance:
            xs += [node.x - reach / 2, node.x + reach / 2]
            ys += [node.y - 20, node.y + 30]
        elif node.hop in dense:  # along the radius, outwards
            xs += [node.x, node.x + node.x / distance * reach]
            ys += [node.y, node.y + node.y / distance * reach]
        else:  # level, on the outer side
            xs += [node.x, node.x + (reach if node.x >= 0 else -reach)]
            ys += [node.y - 14, node.y + 14]
    margin = 16.0
    return min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin


def render_svg(graph: Graph, *, link: Callable[[Node], str] = default_link) -> str:
    """The graph as a standalone ``<svg>`` element (inline in a page, or saved as a file).

    Args:
        graph: a laid-out graph (:func:`entry_graph`, :func:`folder_graph`).
        link: the address each node links to (the UI passes its own routes and token).

    Returns:
        The SVG text; nodes are links, lines carry arrows from the naming entry.
    """
    at = {node.path: node for node in graph.nodes}
    dense = _dense(graph)
    left, top, right, bottom = _bounds(graph, dense)
    width, height = right - left, bottom - top + 24
    caption = {"entry": "Links of", "folder": "Entries and links of", "tree": "Domains of the tree"}
    about = f"{caption.get(graph.scope, 'Links of')} {graph.center}".strip()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="link-graph" role="group" '
        f'aria-label="{escape(about)}" '
        f'viewBox="{left:.0f} {top:.0f} {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif" font-size="11">',
        f"<title>{escape(about)}</title>",
        '<defs><marker id="lg-arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" '
        'markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#868e96"/>'
        "</marker></defs>",
        '<g class="edges">',
    ]
    heaviest = max((e.weight for e in graph.edges if e.kind == "cross"), default=1)
    for edge in graph.edges:
        a, b = at.get(edge.source), at.get(edge.target)
        if a is None or b is None:
            continue
        length = math.hypot(b.x - a.x, b.y - a.y) or 1.0
        r = _size(b) + 2  # the arrow stops at the circle's edge
        x2, y2 = b.x - (b.x - a.x) * r / length, b.y - (b.y - a.y) * r / length
        width = 1.0 if edge.kind != "cross" else 1.0 + 4.0 * edge.weight / heaviest
        arrow = ' marker-end="url(#lg-arrow)"' if edge.kind == "relation" else ""
        dash = ' stroke-dasharray="4 3"' if edge.kind == "cross" else ""
        out.append(
            f'<line class="edge {edge.kind}" x1="{a.x:.1f}" y1="{a.y:.1f}" x2="{x2:.1f}" '
            f'y2="{y2:.1f}" stroke="{_LINE.get(edge.kind, "#adb5bd")}" stroke-width="{width:.1f}"'
            f"{arrow}{dash}><title>{escape(f'{edge.source} → {edge.target} ({edge.weight})')}"
            "</title></line>"
        )
    out.append('</g><g class="nodes">')
    for node in graph.nodes:
        r = _size(node)
        fill = _CENTRE if node.hop == 0 else _FILL.get(node.kind, "#868e96")
        shape = (f'<circle cx="{node.x:.1f}" cy="{node.y:.1f}" r="{r:.1f}" fill="{fill}"/>'
                 if node.kind == "entry" else
                 f'<rect x="{node.x - r:.1f}" y="{node.y - r:.1f}" width="{2 * r:.1f}" '
                 f'height="{2 * r:.1f}" rx="2" fill="{fill}"/>')
        unit = "entries" if node.kind == "folder" and (node.hop == 0 or graph.scope == "tree") else "links"
        tip = escape(f"{node.title} ({node.path or '/'}, {node.degree} {unit})")
        out.append(
            f'<a class="node {node.kind}" href="{escape(link(node))}" data-path="{escape(node.path)}">'
            f"<title>{tip}</title>{shape}{_text(node, r, node.hop in dense)}</a>"
        )
    out.append("</g>")
    if graph.more:
        out.append(f'<text class="more" x="{left + 8:.0f}" y="{bottom + 16:.0f}" fill="#495057">'
                   f"+{graph.more} more not shown (nearest and most linked first)</text>")
    out.append("</svg>")
    return "".join(out)
