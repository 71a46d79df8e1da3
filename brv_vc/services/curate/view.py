"""The tree as a batch will leave it: pending writes and deletes laid over the disk.

Each operation of a batch is thus resolved, built and checked on the result of the ones before
it. The stages below the batch only ask the view; only :meth:`View.add` changes it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from brv_vc.errors import NotFoundError
from brv_vc.format.entry import Entry, parse_entry
from brv_vc.index.relations import naming
from brv_vc.tree import store
from brv_vc.tree.layout import Kind, kind_of
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path

if TYPE_CHECKING:
    from brv_vc.services.curate.plan import Plan


@dataclass
class View:
    """The tree with the pending effects of already planned operations laid over it."""

    project: Project
    written: dict[str, bytes] = field(default_factory=dict)
    deleted: set[str] = field(default_factory=set)
    _paths: dict[str, Path] = field(default_factory=dict)
    _written_dirs: set[str] = field(default_factory=set)
    _on_disk: list[str] | None = None

    def path(self, rel: str) -> Path:
        """``project.path_of`` (refusing escapes), cached.

        It resolves symlinks, which costs a dozen ``lstat`` calls and dominated a
        1,000-operation batch before the cache.
        """
        found = self._paths.get(rel)
        if found is None:
            found = self._paths[rel] = self.project.path_of(rel)
        return found

    def is_gone(self, rel: str) -> bool:
        """True when ``rel`` or a folder above it is deleted by a planned operation."""
        return any(rel == d or rel.startswith(d + "/") for d in self.deleted)

    def is_file(self, rel: str) -> bool:
        """True when an entry file exists at ``rel`` (after pending effects)."""
        if rel in self.written:
            return True
        return not self.is_gone(rel) and os.path.isfile(self.path(rel))

    def is_dir(self, rel: str) -> bool:
        """True when a folder exists at ``rel`` (after pending effects)."""
        if rel in self._written_dirs:
            return True
        return not self.is_gone(rel) and os.path.isdir(self.path(rel))

    def read(self, rel: str) -> bytes:
        """Returns the bytes at ``rel``, a pending write first.

        Raises:
            NotFoundError: no file is there, or a planned operation deletes it.
        """
        if rel in self.written:
            return self.written[rel]
        try:
            if self.is_gone(rel):
                raise FileNotFoundError(rel)
            return self.path(rel).read_bytes()
        except (FileNotFoundError, IsADirectoryError):
            raise NotFoundError(f"no entry at '{rel}'", file=rel) from None

    def entry(self, rel: str) -> Entry:
        """Parses the entry at ``rel`` as the batch leaves it (a pending write first).

        Raises:
            BrvError: no file is there, or it is not a readable entry.
        """
        stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
        return parse_entry(self.read(rel), file=rel, stem=stem)

    def files_under(self, rel: str) -> list[str]:
        """Every file under the folder ``rel`` after pending effects, sorted."""
        root = self.path(rel)
        found = (
            {f"{rel}/{p.relative_to(root).as_posix()}" for p in root.rglob("*") if p.is_file()}
            if root.is_dir()
            else set()
        )
        found.update(w for w in self.written if w.startswith(rel + "/"))
        return sorted(f for f in found if not self.is_gone(f) or f in self.written)

    def entries(self) -> list[str]:
        """The knowledge entries (not archived) after pending effects, sorted.

        The disk is listed once per batch; pending writes and deletes are laid over it.
        """
        if self._on_disk is None:
            self._on_disk = store.entry_paths(self.project)
        found = {rel for rel in self._on_disk if not self.is_gone(rel)}
        found.update(
            rel for rel in self.written
            if kind_of(rel) is Kind.ENTRY  # never under _archived/
        )
        return sorted(found)

    def linking_to(self, rel: str) -> list[str]:
        """The entries (after pending effects) that may link to ``rel``, sorted.

        Trigger: a MERGE relinks the entries that link to its source. Why: reading every
        entry to find them cost ~2 s at 25,000 entries. Outcome: the search index's links
        table names them (:func:`_indexed_naming`), plus every entry this batch writes; with
        no usable index, every entry. The caller still reads each and checks its links.
        """
        named = _indexed_naming(self.project, rel)
        if named is None:
            return self.entries()
        found = {p for p in named if kind_of(p) is Kind.ENTRY and not self.is_gone(p)}
        found.update(p for p in self.written if kind_of(p) is Kind.ENTRY)
        return sorted(found)

    def add(self, plan: Plan) -> None:
        """Lays a plan's effects over the view."""
        for rel in plan.deletes:
            self.deleted.add(rel)
            inside = rel + "/"
            self.written = {
                k: v for k, v in self.written.items() if not (k == rel or k.startswith(inside))
            }
            self._written_dirs = {
                d for d in self._written_dirs if not (d == rel or d.startswith(inside))
            }
        for rel, data in plan.writes:
            self.written[rel] = data
            self.deleted.discard(rel)
            parts = rel.split("/")
            self._written_dirs.update("/".join(parts[:i]) for i in range(1, len(parts)))


def _indexed_naming(project: Project, rel: str) -> list[str] | None:
    """Files on disk whose relations name ``rel``, from the search index; None without one.

    The index is brought in step with the tree first, as every reader does. No index yet:
    None, since building one costs more than reading the entries. Any index failure: None
    too (an index must never block a write of knowledge).
    """
    if not index_db_path(project).is_file():
        return None
    try:
        from brv_vc.services.derived import open_synced

        opened = open_synced(project, follow=False)  # a dry run must not rewrite summaries
        try:
            return naming(opened.conn, rel)
        finally:
            opened.close()
    except Exception:  # fail open: the caller reads every entry instead
        return None
