"""The Python API: ``from brv_vc import ContextTree``.

A thin face over the same services the CLI and the MCP server call, returning the same
values. An agent's planning loop (seed 003) hydrates a node before it works on it,
dehydrates the node's digest when it is done, and keeps the tree's token hygiene in view::

    from brv_vc import ContextTree

    tree = ContextTree("path/to/project")
    context = tree.hydrate("auth/jwt", budget=2000)      # global + parent intent + local
    ...  # plan and implement with context.document in the prompt
    tree.curate([{"type": "ADD", "path": "auth/jwt", "title": "Token expiry",
                  "content": "Access tokens expire after 1 h.", "reason": "decided today"}])
    tree.dehydrate("auth/jwt", "JWT, 1 h expiry; refresh tokens single-use.")
    assert tree.stats().nodes_over_limit == 0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from brv_vc.clock import utcnow
from brv_vc.tree.project import Project, find_project

if TYPE_CHECKING:
    from brv_vc.services.brain import BrainResult
    from brv_vc.services.curate import CurateResult
    from brv_vc.services.hydrate import DehydrateResult, HydrateResult, TreeStats
    from brv_vc.services.query import QueryResult, SearchResult
    from brv_vc.services.show import ShowResult


class ContextTree:
    """A brv project's context tree, found from ``path`` (the project or any subfolder).

    Args:
        path: a folder inside the project (default: the current folder).
        clock: returns "now" for lifecycle signals (default: the UTC wall clock).

    Raises:
        NotInitializedError: no ``.brv/`` in ``path`` or any parent.
    """

    def __init__(self, path: str | Path = ".",
                 *, clock: Callable[[], datetime] = utcnow) -> None:
        self.project: Project = find_project(Path(path))
        self._clock = clock
        from brv_vc.services.recovery import settle

        settle(self.project, clock())  # what a killed writer left, as every command does

    def search(self, query: str, *, limit: int = 10, scope: str | None = None,
               record: bool = True) -> SearchResult:
        """Ranked entries for ``query`` (as ``brv search``; ``record=False``: --no-record)."""
        from brv_vc.services.query import search_tree

        return search_tree(self.project, query, now=self._clock(), limit=limit, scope=scope,
                           record=record)

    def query(self, question: str) -> QueryResult:
        """An answer from the five tiers (as ``brv query``)."""
        from brv_vc.services.query import query_tree

        return query_tree(self.project, question, now=self._clock())

    def curate(self, operations: Sequence[Mapping[str, Any]], *, atomic: bool = False,
               dry_run: bool = False) -> CurateResult:
        """Applies curate operations after validating them (as ``brv curate --ops``).

        Raises:
            FormatError: the batch does not match the operations schema (nothing applied).
        """
        from brv_vc.services.curate import run_batch, validate_ops

        validate_ops(list(operations))
        return run_batch(self.project, operations, self._clock(), atomic=atomic,
                         dry_run=dry_run)

    def show(self, path: str) -> ShowResult:
        """One entry with its backlinks and signals (as ``brv show``)."""
        from brv_vc.services.show import show_entry

        return show_entry(self.project, path, now=self._clock())

    def hydrate(self, path: str = "", *, budget: int = 4000) -> HydrateResult:
        """The context a node needs within ``budget`` tokens (seed 003)."""
        from brv_vc.services.hydrate import hydrate

        return hydrate(self.project, path, self._clock(), budget=budget)

    def dehydrate(self, path: str, digest: str) -> DehydrateResult:
        """Stores a node's digest for its parents' hydration (seed 003)."""
        from brv_vc.services.hydrate import dehydrate

        return dehydrate(self.project, path, digest, self._clock())

    def stats(self, *, limit: int = 8192) -> TreeStats:
        """Token hygiene: tokens per node, the average, nodes over ``limit`` (seed 003)."""
        from brv_vc.services.hydrate import tree_stats

        return tree_stats(self.project, limit=limit)

    def brain(self, *, budget: int = 6000, if_none_match: str | None = None) -> BrainResult:
        """The layered project brain (seed 004)."""
        from brv_vc.services.brain import assemble

        return assemble(self.project, self._clock(), budget=budget,
                        if_none_match=if_none_match)
