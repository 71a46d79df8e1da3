"""A picture of the links: the neighbourhood of an entry or a folder, drawn as SVG (issue 28).

Bounded (at most ``LIMIT`` nodes, nearest and most linked first, the rest counted), laid
out by the project's own deterministic radial layout, and rendered with every label
escaped. It reads the index only, so a picture costs the same at 25,000 entries as at 25.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.link_graph.facets import facets_of
    from brv_vc.services.link_graph.graph import (
        LIMIT,
        WHOLE,
        entry_graph,
        folder_graph,
        whole_graph,
    )
    from brv_vc.services.link_graph.model import Edge, Facet, Graph, Node
    from brv_vc.services.link_graph.svg import default_link, render_svg

__all__ = [
    "LIMIT",
    "WHOLE",
    "Edge",
    "Facet",
    "Graph",
    "Node",
    "default_link",
    "entry_graph",
    "facets_of",
    "folder_graph",
    "render_svg",
    "whole_graph",
]
__getattr__ = lazy(__name__, {
    "LIMIT": "graph", "WHOLE": "graph", "entry_graph": "graph", "folder_graph": "graph",
    "whole_graph": "graph", "facets_of": "facets",
    "Edge": "model", "Facet": "model", "Graph": "model", "Node": "model",
    "default_link": "svg", "render_svg": "svg",
})
