"""Git hooks in a repository: install (or upgrade), uninstall and report brv's hooks.

What a hook does when git runs it is a vc step (``services.vc.run_hook``).
"""

from brv_vc.services.face import lazy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.hooks.health import acknowledge, notice
    from brv_vc.services.hooks.install import (
        HooksReport,
        HookState,
        hooks_status,
        install_hooks,
        uninstall_hooks,
    )

__all__ = ["HookState", "HooksReport", "acknowledge", "hooks_status", "install_hooks", "notice",
           "uninstall_hooks"]
__getattr__ = lazy(__name__, {**dict.fromkeys(__all__, "install"), "acknowledge": "health",
                              "notice": "health"})
