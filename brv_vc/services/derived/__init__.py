"""Derived knowledge: the search index, summaries, the manifest and archives (seed 000).

The refresh after any change, ``_index.md``, abstracts and overviews, ``_manifest.json``,
and archiving. All of it can be rebuilt from the tree.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.derived.archiving import (
        ArchiveResult,
        CandidatesResult,
        archive,
        list_candidates,
        restore,
    )
    from brv_vc.services.derived.index import (
        RESIDENT,
        OpenIndex,
        index_project,
        open_synced,
        resync,
        with_index,
    )
    from brv_vc.services.derived.manifest import show_manifest, structure_context
    from brv_vc.services.derived.refreshing import RefreshReport, refresh
    from brv_vc.services.derived.summaries import (
        SummarizeResult,
        refresh_summaries,
        summarize,
    )

__all__ = [
    "RESIDENT",
    "ArchiveResult",
    "CandidatesResult",
    "OpenIndex",
    "RefreshReport",
    "SummarizeResult",
    "archive",
    "index_project",
    "list_candidates",
    "open_synced",
    "refresh",
    "refresh_summaries",
    "restore",
    "resync",
    "show_manifest",
    "structure_context",
    "summarize",
    "with_index",
]
__getattr__ = lazy(__name__, {
    "ArchiveResult": "archiving", "CandidatesResult": "archiving", "archive": "archiving",
    "list_candidates": "archiving", "restore": "archiving",
    "OpenIndex": "index", "RESIDENT": "index", "index_project": "index", "open_synced": "index", "resync": "index", "with_index": "index",
    "show_manifest": "manifest", "structure_context": "manifest",
    "RefreshReport": "refreshing", "refresh": "refreshing",
    "SummarizeResult": "summaries", "refresh_summaries": "summaries", "summarize": "summaries",
})
