"""Curate: structured operations (ADD / UPDATE / UPSERT / MERGE / DELETE, seed 002 §4.1).

Each operation flows once through parse → resolve → build → check → apply → record.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.curate.batch import (
        SCHEMA,
        CurateResult,
        OpResult,
        Summary,
        load_ops,
        run_batch,
        validate_ops,
    )
    from brv_vc.services.curate.journal import settle_journal

__all__ = ["SCHEMA", "CurateResult", "OpResult", "Summary", "load_ops", "run_batch",
           "settle_journal", "validate_ops"]
__getattr__ = lazy(__name__, {**dict.fromkeys(__all__, "batch"), "settle_journal": "journal"})
