"""What a picture of the links holds: nodes placed on the page, edges, and what was left off."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    """One entry or folder in the picture.

    Attributes:
        path: the entry's tree path (with ``.md``) or the folder's (no trailing ``/``).
        title: the entry's title, or the folder's path.
        kind: ``"entry"`` or ``"folder"``.
        hop: links from the centre (0 is the centre itself).
        degree: links in and out (for a folder: its entries or the links counted to it).
        x: horizontal position, page units, centre at 0.
        y: vertical position, page units, centre at 0.
    """

    path: str
    title: str
    kind: str
    hop: int
    degree: int
    x: float = 0.0
    y: float = 0.0


@dataclass(frozen=True)
class Edge:
    """A line between two nodes of the picture.

    Attributes:
        source: the node that names the other (a relation), or the containing folder.
        target: the node named (or contained).
        kind: ``"relation"`` (``related`` or an ``@`` line), ``"in"`` (folder contains
            entry) or ``"cross"`` (links between two folders, counted in ``weight``).
        weight: how many links the line stands for.
    """

    source: str
    target: str
    kind: str
    weight: int = 1


@dataclass(frozen=True)
class Graph:
    """The neighbourhood of an entry or a folder, bounded and laid out.

    Attributes:
        center: the path the picture is about ("" for the whole tree's domains).
        scope: ``"entry"``, ``"folder"`` or ``"tree"``.
        nodes: nearest and most linked first; the centre is the first node.
        edges: lines between nodes of the picture only.
        more: neighbours found but left off to keep the picture readable.
        notes: what the index said while opening (for the page's notes).
    """

    center: str
    scope: str
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]
    more: int
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Facet:
    """What the graph's filters read of one entry.

    Attributes:
        domain: its top-level folder.
        tags: its frontmatter tags.
        maturity: ``draft``, ``validated`` or ``core``, decayed to now.
    """

    domain: str
    tags: tuple[str, ...]
    maturity: str
