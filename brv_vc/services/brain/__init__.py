"""Brain: the layered, token-budgeted project document agents load (seed 004)."""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.brain.document import (
        DEFAULT_BUDGET,
        MIN_BUDGET,
        BrainResult,
        assemble,
        project_brief,
    )
    from brv_vc.services.brain.exports import TARGETS, ExportResult, export
    from brv_vc.services.brain.items import Item, Pool
    from brv_vc.services.brain.pool import load_pool, load_pools

__all__ = ["DEFAULT_BUDGET", "MIN_BUDGET", "TARGETS", "BrainResult", "ExportResult", "Item",
           "Pool", "assemble", "export", "load_pool", "load_pools", "project_brief"]
__getattr__ = lazy(__name__, {
    "DEFAULT_BUDGET": "document", "MIN_BUDGET": "document", "BrainResult": "document", "assemble": "document",
    "project_brief": "document", "TARGETS": "exports", "ExportResult": "exports", "export": "exports",
    "Item": "items", "Pool": "items", "load_pool": "pool", "load_pools": "pool",
})
