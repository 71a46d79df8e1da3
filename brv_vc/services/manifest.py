"""``brv manifest``: the token-budgeted manifest, rebuilt first when stale."""

from __future__ import annotations

from datetime import datetime

from brv_vc.summary.manifest import ManifestResult, ensure
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import open_state


def show_manifest(project: Project, now: datetime, *, rebuild: bool = False) -> ManifestResult:
    """Returns the manifest, rebuilding it when stale, missing, edited by hand or asked to.

    Args:
        project: the project.
        now: the clock (importance decays to it).
        rebuild: rebuild even when fresh.
    """
    conn = open_state(project)
    try:
        return ensure(project, conn, now, force=rebuild)
    finally:
        conn.close()
