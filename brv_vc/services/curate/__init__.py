"""Curate: structured operations (ADD / UPDATE / UPSERT / MERGE / DELETE, seed 002 §4.1).

Each operation flows once through the stages ``parse`` → ``resolve`` → ``build`` → ``check``
→ ``apply`` → ``record``, driven by ``batch``; no stage imports another (see its docstring
and docs/architecture.md).
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.curate.apply import remove
    from brv_vc.services.curate.batch import run_batch
    from brv_vc.services.curate.journal import log_undone, settle_journal
    from brv_vc.services.curate.merge import merge_entries, relink
    from brv_vc.services.curate.names import entry_titled
    from brv_vc.services.curate.parse import SCHEMA, load_ops, validate_ops
    from brv_vc.services.curate.report import CurateResult, OpResult, Summary

__all__ = ["SCHEMA", "CurateResult", "OpResult", "Summary", "entry_titled", "load_ops",
           "log_undone", "merge_entries", "relink", "remove",
           "run_batch", "settle_journal", "validate_ops"]
__getattr__ = lazy(__name__, {
    "run_batch": "batch", "entry_titled": "names", "settle_journal": "journal",
    "log_undone": "journal",
    "merge_entries": "merge", "relink": "merge",  # the MERGE rule (services/vc/merged_away)
    "remove": "apply",
    "SCHEMA": "parse", "load_ops": "parse", "validate_ops": "parse",
    "CurateResult": "report", "OpResult": "report", "Summary": "report",
})
