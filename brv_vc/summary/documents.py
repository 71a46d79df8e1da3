"""The inputs of the generators, as values (so an engine never touches the disk)."""

from __future__ import annotations

from brv_vc.record import NamedTuple
from brv_vc.summary.digest import Digest


class Document(NamedTuple):
    """One knowledge file to condense: its path, digest and source text (already truncated)."""

    relpath: str
    digest: Digest
    source: str


class ChildLine(NamedTuple):
    """One child of a folder as its ``_index.md`` lists it.

    ``name`` is ``entry.md`` or ``sub/``; ``text`` is the entry's summary or the
    sub-folder's headline; ``terms`` its tags and keywords (a folder's key terms, most
    frequent first); ``entries`` how many entries it stands for.
    """

    name: str
    title: str
    text: str
    terms: tuple[str, ...] = ()
    entries: int = 1


class FolderInput(NamedTuple):
    """A folder to summarise: its path ('' = the root), condensation order, purpose, children."""

    relpath: str
    order: int
    purpose: str
    children: tuple[ChildLine, ...]
