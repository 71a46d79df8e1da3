"""What the graph's filters read of each entry drawn: its domain, tags and current maturity.

Bounded by the picture: the tags of the entries drawn (read from their files, the index
keeps tags and keywords together) and their maturity as the tree page shows it
(``services.glance``, decayed to now).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from brv_vc.services.link_graph.model import Facet
from brv_vc.tree.project import Project


def facets_of(project: Project, paths: Sequence[str], now: datetime) -> dict[str, Facet]:
    """Domain, tags and maturity of each entry of ``paths`` (an unreadable one has no tags)."""
    from brv_vc.errors import BrvError
    from brv_vc.format.entry import parse_entry
    from brv_vc.services.glance import glance

    maturity = {g.path: g.maturity for g in glance(project, paths, now)}
    out = {}
    for path in paths:
        try:
            tags = parse_entry(project.path_of(path).read_bytes(), file=path).tags
        except (OSError, BrvError):  # gone since the index saw it, or malformed: no tags
            tags = ()
        out[path] = Facet(path.split("/", 1)[0], tuple(tags), maturity.get(path, "draft"))
    return out
