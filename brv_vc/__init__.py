"""brv-vc: a git-native, agent-native memory for software teams and their AI coding agents."""

from __future__ import annotations

__version__ = "0.1.0"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.api import ContextTree

__all__ = ["ContextTree", "__version__"]


def __getattr__(name: str) -> object:
    # Every brv module imports this package first: the API loads only when asked for.
    if name == "ContextTree":
        from brv_vc.api import ContextTree

        return ContextTree
    raise AttributeError(f"module 'brv_vc' has no attribute {name!r}")
