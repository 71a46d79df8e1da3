"""Hydration and dehydration of nodes, and token hygiene (seed 003)."""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.hydrate.dehydration import DehydrateResult, dehydrate
    from brv_vc.services.hydrate.hydration import DEFAULT_BUDGET, HydrateResult, hydrate
    from brv_vc.services.hydrate.stats import NodeStats, TreeStats, tree_stats

__all__ = ["DEFAULT_BUDGET", "DehydrateResult", "HydrateResult", "NodeStats", "TreeStats",
           "dehydrate", "hydrate", "tree_stats"]
__getattr__ = lazy(__name__, {
    "DehydrateResult": "dehydration", "dehydrate": "dehydration",
    "DEFAULT_BUDGET": "hydration", "HydrateResult": "hydration", "hydrate": "hydration",
    "NodeStats": "stats", "TreeStats": "stats", "tree_stats": "stats",
})
