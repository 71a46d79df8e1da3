"""``/graph?entry=PATH`` or ``/graph?domain=FOLDER``: a picture of the links around one place.

The drawing is ``brv_vc.services.link_graph``'s (server-side SVG with every label escaped);
until that package is present this page says so instead of drawing anything.
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
    head = tag("h1", "Graph", " ", tag("small", target or ""))
    if target is None:
        hint = "Open the graph of an entry from its page, or /graph?domain=FOLDER."
        return page("Graph", join([head, tag("p", hint, class_="hint")]), active="/graph")
    body = tag("p", "The link graph is not drawn yet in this version.", class_="hint")
    return page(f"Graph {target}", join([head, tag("div", body, class_="graph")]),
                active="/graph")
