"""``brv ui``: a local web view over the same services as the CLI and ``brv mcp``.

A presentation layer beside ``cli/`` and ``mcp/``: pages for the tree, an entry, search,
the review queue, dream logs and the knowledge under git, served on the loopback interface
only and behind a per-run token (``web.guard``). It needs starlette and uvicorn (the ``ui``
extra); importing this package costs nothing until ``app`` is called.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.tree.project import Project
    from brv_vc.web.guard import Guard


def app(project: Project, token: str, clock: Callable[[], datetime] | None = None) -> Guard:
    """The ASGI application of ``project``: every request must carry ``token``.

    Args:
        project: the project to show.
        token: the secret of this run (``?token=`` once, then a cookie).
        clock: "now" for lifecycle signals (the real clock by default).
    """
    from brv_vc.clock import utcnow
    from brv_vc.web.asgi import build_app

    return build_app(project, token, clock or utcnow)
