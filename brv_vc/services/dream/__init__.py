"""Dreaming (seed 001): consolidate, synthesize and prune the tree, then undo if need be.

Gates (time, activity, queue, lock), deterministic detectors or an agent's decisions, one
code path that applies them with backups, logs and review entries, and ``--undo``.
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.dream.agent import ScanResult, scan
    from brv_vc.services.dream.control import DreamLogs, cancel, logs
    from brv_vc.services.dream.decisions import load_decisions
    from brv_vc.services.dream.dreamlog import summary_line
    from brv_vc.services.dream.gates import Gate
    from brv_vc.services.dream.interrupted import undo_interrupted
    from brv_vc.services.dream.run import DEFAULT_BUDGET, DreamResult, dream, new_id
    from brv_vc.services.dream.undoing import UndoResult, last_undoable, undo

_HOMES = {
    "ScanResult": "agent", "scan": "agent", "load_decisions": "decisions",
    "DreamLogs": "control", "cancel": "control", "logs": "control",
    "Gate": "gates", "summary_line": "dreamlog", "undo_interrupted": "interrupted",
    "DEFAULT_BUDGET": "run", "DreamResult": "run", "dream": "run", "new_id": "run",
    "UndoResult": "undoing", "last_undoable": "undoing", "undo": "undoing",
}
__all__ = ["DEFAULT_BUDGET", "DreamLogs", "DreamResult", "Gate", "ScanResult", "UndoResult",
           "cancel", "dream", "last_undoable", "load_decisions", "logs", "new_id", "scan",
           "summary_line", "undo", "undo_interrupted"]
__getattr__ = lazy(__name__, _HOMES)
