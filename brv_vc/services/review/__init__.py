"""Review: every reviewable change with a backup of what it replaced (seed 001 "Review").

Dream operations and curate DELETE / MERGE (or any operation marked ``"review": true``)
are recorded here; ``approve`` keeps a change, ``reject`` restores its backups byte for
byte. With review enabled, commit and push refuse to share pending changes.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.review.backups import (
        BlobStore,
        FileChange,
        Snapshot,
        capture,
        changes_since,
        check_chain,
        digest,
        revert,
        review_store,
    )
    from brv_vc.services.review.entries import ReviewEntry
    from brv_vc.services.review.groups import Group, Pulled
    from brv_vc.services.review.queue import (
        Decision,
        ReviewDetail,
        ReviewList,
        approve,
        dismiss,
        pending,
        pending_for,
        record,
        reject,
        show,
        withdraw,
    )
    from brv_vc.services.review.settings import is_enabled, set_enabled

_HOMES = {
    "BlobStore": "backups", "FileChange": "backups", "Snapshot": "backups",
    "capture": "backups", "changes_since": "backups", "check_chain": "backups",
    "digest": "backups", "review_store": "backups", "revert": "backups",
    "ReviewEntry": "entries", "Group": "groups", "Pulled": "groups",
    "Decision": "queue", "ReviewDetail": "queue", "ReviewList": "queue", "approve": "queue", "dismiss": "queue",
    "pending": "queue", "pending_for": "queue", "record": "queue", "reject": "queue",
    "show": "queue", "withdraw": "queue",
    "is_enabled": "settings", "set_enabled": "settings",
}
__all__ = [
    "BlobStore",
    "Decision",
    "FileChange",
    "Group",
    "Pulled",
    "ReviewDetail",
    "ReviewEntry",
    "ReviewList",
    "Snapshot",
    "approve",
    "capture",
    "changes_since",
    "check_chain",
    "digest",
    "dismiss",
    "is_enabled",
    "pending",
    "pending_for",
    "record",
    "reject",
    "revert",
    "review_store",
    "set_enabled",
    "show",
    "withdraw",
]
__getattr__ = lazy(__name__, _HOMES)
