"""Brain: the layered, token-budgeted project document agents load (seed 004)."""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.brain.assemble import DEFAULT_BUDGET, BrainResult, assemble

__all__ = ["DEFAULT_BUDGET", "BrainResult", "assemble"]
__getattr__ = lazy(__name__, dict.fromkeys(__all__, "assemble"))
