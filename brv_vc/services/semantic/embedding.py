"""``brv index --embed``: the first embedding of a large tree, all at once, with progress.

A search embeds at most ``store.SEARCH_BUDGET`` missing entries before it answers; this
embeds every entry that has no vector for the configured model yet (edits since: only
those), so later searches start at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from brv_vc.errors import NotFoundError
from brv_vc.services.derived import OpenIndex, with_index
from brv_vc.tree.embed_config import configured_embeddings
from brv_vc.tree.project import Project


class EmbedReport(NamedTuple):
    """What ``brv index --embed`` did."""

    model: str
    local: bool
    embedded: int
    entries: int


def embed_tree(project: Project, progress: Callable[[int, int], None] | None = None) -> EmbedReport:
    """Embeds every entry that has no vector for the configured model.

    Args:
        project: the project.
        progress: called with (done, total) entries as chunks are stored.

    Returns:
        The model and the counts.

    Raises:
        NotFoundError: no ``embeddings:`` setting names a model.
        ProviderError: the project's endpoint is not approved here, or the model failed
            (the vectors stored before are kept: run it again to go on).
        FormatError: invalid ``embeddings:`` settings.
    """
    from brv_vc.services.semantic.store import embed_all

    settings = configured_embeddings(project)
    if settings is None:
        raise NotFoundError(
            "no embedding model is configured, so there is nothing to embed",
            hint="set embeddings: in .brv/config.yaml or ~/.config/brv/config.yaml "
                 "(model: wordllama for the offline model), or BRV_EMBED_MODEL; "
                 "see docs/semantic.md")

    def work(opened: OpenIndex) -> tuple[int, int]:
        return embed_all(project, opened.conn, settings, progress)

    (embedded, entries), _ = with_index(project, work)
    return EmbedReport(settings.model, settings.local, embedded, entries)
