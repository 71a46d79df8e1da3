"""``/graph?entry=PATH`` or ``/graph?domain=FOLDER``: a picture of the links around one place.

The drawing is ``brv_vc.services.link_graph``'s (server-side SVG with every label escaped,
at most 40 nodes, nearest and most linked first); without a place, the tree's domains.
"""

from __future__ import annotations

from datetime import datetime

from brv_vc.tree.layout import clean_relpath
from brv_vc.tree.project import Project
from brv_vc.web.html import Markup, join, page, tag


def render(project: Project, entry: str | None, domain: str | None, now: datetime) -> Markup:
    """The graph page of an entry's or a domain's neighbourhood.

    Raises:
        InvalidPathError: the path leaves the tree.
    """
    target = clean_relpath(entry, what="entry path") if entry else (
        clean_relpath(domain, what="folder") if domain else None)
    from brv_vc.services import link_graph

    head = tag("h1", "Graph", " ", tag("small", target or "all domains"))
    if entry:
        graph = link_graph.entry_graph(project, target or "")
    else:
        graph = link_graph.folder_graph(project, target or "")
    what = {"entry": "Entries it names (arrows out) and that name it, then theirs.",
            "folder": "Its most linked entries, their relations, and the folders it links with.",
            "tree": "The domains and the links between them (dashed: counted links)."}
    hint = tag("p", what[graph.scope], " Click a node to open it.", class_="hint")
    notes = [tag("p", note, class_="hint") for note in graph.notes]
    picture = tag("div", Markup(link_graph.render_svg(graph)), class_="graph")
    return page(f"Graph {target or ''}".strip(), join([head, hint, *notes, picture]),
                active="/graph")
