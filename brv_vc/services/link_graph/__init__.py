"""A picture of the links: the neighbourhood of an entry or a folder, drawn as SVG (issue 28).

Bounded (at most ``LIMIT`` nodes, nearest and most linked first, the rest counted), laid
out by the project's own deterministic radial layout, and rendered with every label
escaped. It reads the index only, so a picture costs the same at 25,000 entries as at 25.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.link_graph.graph import LIMIT, entry_graph, folder_graph
    from brv_vc.services.link_graph.model import Edge, Graph, Node
    from brv_vc.services.link_graph.svg import default_link, render_svg

__all__ = [
    "LIMIT",
    "Edge",
    "Graph",
    "Node",
    "default_link",
    "entry_graph",
    "folder_graph",
    "render_svg",
]
__getattr__ = lazy(__name__, {
    "LIMIT": "graph", "entry_graph": "graph", "folder_graph": "graph",
    "Edge": "model", "Graph": "model", "Node": "model",
    "default_link": "svg", "render_svg": "svg",
})
