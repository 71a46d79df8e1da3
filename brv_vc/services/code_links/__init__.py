"""Code links: what the tree knows about a file, and which knowledge a code change made stale.

An entry links to repository files through its ``Files:`` list (seed 000's Raw Concept,
what ``brv curate`` writes from ``rawConcept.files``) and through repository paths named in
its text. The index keeps the candidate paths per entry (``index.codelinks``); this package
resolves them against the code repository and reads its history in one walk (docs/code-links.md).
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.code_links.concern import concerned
    from brv_vc.services.code_links.lookup import about, linked_entries
    from brv_vc.services.code_links.model import (
        About,
        AboutEntry,
        Commit,
        Freshness,
        Outside,
        PathAbout,
        StaleEntry,
        StaleReport,
    )
    from brv_vc.services.code_links.ops import STALE_TAG, stale_operations
    from brv_vc.services.code_links.staleness import stale, stale_entries

__all__ = ["STALE_TAG", "About", "AboutEntry", "Commit", "Freshness", "Outside", "PathAbout",
           "StaleEntry", "StaleReport", "about", "concerned", "linked_entries", "stale",
           "stale_entries", "stale_operations"]
__getattr__ = lazy(__name__, {
    "About": "model", "AboutEntry": "model", "Commit": "model", "Freshness": "model",
    "Outside": "model", "PathAbout": "model", "StaleEntry": "model", "StaleReport": "model",
    "concerned": "concern", "about": "lookup", "linked_entries": "lookup",
    "stale": "staleness", "stale_entries": "staleness",
    "STALE_TAG": "ops", "stale_operations": "ops",
})
