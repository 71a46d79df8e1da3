"""``/graph?entry=PATH`` or ``/graph?domain=FOLDER``: the links around one place, interactive.

``brv_vc.services.link_graph`` chooses the nodes (an entry's or a folder's neighbourhood; without
a place, the tree's most linked entries joined by their real links). The page carries them as
a JSON data block (never executed; ``<`` escaped) and ``static/graph.js`` draws them with the
vendored Cytoscape.js (``static/README.md``): zoom, pan, filters by domain, tag and maturity,
a search that centres a node, a click that opens it. Without script the server's SVG picture
shows instead (``<noscript>``), every label escaped as before.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project
from brv_vc.web.html import Markup, join, page, tag

LIVE = 150  # nodes the interactive picture of a place draws (the SVG keeps link_graph.LIMIT)
MATURITIES = ("draft", "validated", "core")


def _data(graph: Any, facets: dict[str, Any]) -> dict[str, Any]:
    from brv_vc.services import link_graph

    nodes = []
    for node in graph.nodes:
        facet = facets.get(node.path)
        nodes.append({
            "id": node.path, "label": node.title or node.path or "all domains",
            "kind": node.kind, "hop": node.hop, "degree": node.degree,
            "domain": facet.domain if facet else node.path.split("/", 1)[0],
            "tags": list(facet.tags) if facet else [],
            "maturity": facet.maturity if facet else "",
            "href": link_graph.default_link(node),
        })
    edges = [{"source": e.source, "target": e.target, "kind": e.kind, "weight": e.weight}
             for e in graph.edges]
    return {"center": graph.center, "scope": graph.scope, "nodes": nodes, "edges": edges,
            "more": graph.more}


def _block(data: dict[str, Any]) -> Markup:
    """``data`` as a JSON block no text can close (``<`` ``>`` ``&`` escaped as JSON)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return Markup(f'<script type="application/json" id="graph-data">{text}</script>')


def _select(name: str, every: str, values: list[str]) -> Markup:
    options = [tag("option", every, value="")] + [tag("option", v, value=v) for v in values]
    return tag("select", join(options), id=f"graph-{name}", aria_label=f"filter by {name}")


def _tools(data: dict[str, Any]) -> Markup:
    entries = [n for n in data["nodes"] if n["kind"] == "entry"]
    domains = sorted({n["domain"] for n in data["nodes"] if n["domain"]})
    tags = sorted({t for n in entries for t in n["tags"]})
    maturities = [m for m in MATURITIES if any(n["maturity"] == m for n in entries)]
    find = tag("input", type="search", id="graph-find", placeholder="Find a node",
               aria_label="find a node", autocomplete="off")
    buttons = [tag("button", label, type="button", id=f"graph-{name}", title=title)
               for name, label, title in (("in", "+", "zoom in"), ("out", "\u2212", "zoom out"),
                                          ("fit", "fit", "show every node"))]
    return tag("div", find, _select("domain", "every domain", domains),
               _select("tag", "every tag", tags),
               _select("maturity", "every maturity", maturities), *buttons,
               tag("span", "", id="graph-count", class_="hint"),
               class_="graph-tools", id="graph-tools", hidden=True)


def render(project: Project, entry: str | None, domain: str | None, now: datetime) -> Markup:
    """The graph page of an entry's or a domain's neighbourhood, or of the whole tree.

    Raises:
        InvalidPathError: the path leaves the tree.
    """
    target = clean_relpath(entry, what="entry path") if entry else (
        clean_relpath(domain, what="folder") if domain else None)
    from brv_vc.services import link_graph

    head = tag("h1", "Graph", " ", tag("small", target or "all entries"))
    if entry:
        picture = link_graph.entry_graph(project, target or "")
        live = link_graph.entry_graph(project, target or "", limit=LIVE)
    elif target:
        picture = link_graph.folder_graph(project, target)
        live = link_graph.folder_graph(project, target, limit=LIVE)
    else:
        picture = link_graph.folder_graph(project, "")
        live = link_graph.whole_graph(project)
    what = {"entry": "Entries it names (arrows out) and that name it, then theirs.",
            "folder": "Its most linked entries, their relations, and the folders it links with.",
            "whole": "The most linked entries of the tree and the links between them."}
    hint = tag("p", what[live.scope], " Scroll to zoom, drag to pan, click a node to open it.",
               class_="hint")
    notes = [tag("p", note, class_="hint") for note in live.notes]
    if live.more:
        notes.append(tag("p", f"{live.more} more left off (the most linked are drawn).",
                         class_="hint"))
    paths = [n.path for n in live.nodes if n.kind == "entry"]
    data = _data(live, link_graph.facets_of(project, paths, now))
    still = tag("div", Markup(link_graph.render_svg(picture)), class_="graph")
    body = join([head, hint, *notes, _tools(data),
                 tag("div", "", id="graph", class_="graph-live", hidden=True), _block(data),
                 Markup(f"<noscript>{still}</noscript>")])
    return page(f"Graph {target or ''}".strip(), body, active="/graph",
                scripts=("cytoscape.min.js", "graph.js"))
