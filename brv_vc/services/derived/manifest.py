"""``brv manifest``: the token-budgeted manifest, rebuilt first when stale."""

from __future__ import annotations

from datetime import datetime

from brv_vc.errors import BrvError
from brv_vc.format.frontmatter import split
from brv_vc.summary.manifest import ManifestResult, ensure
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path, open_state


def show_manifest(project: Project, now: datetime, *, rebuild: bool = False) -> ManifestResult:
    """Returns the manifest, rebuilding it when stale, missing, edited by hand or asked to.

    Args:
        project: the project.
        now: the clock (importance decays to it).
        rebuild: rebuild even when fresh.
    """
    notes = _follow_removals(project)
    conn = open_state(project)
    try:
        result = ensure(project, conn, now, force=rebuild)
    finally:
        conn.close()
    return result._replace(warnings=(*notes, *result.warnings)) if notes else result


def _follow_removals(project: Project) -> list[str]:
    """Syncs the search index first: entries deleted or moved by hand are followed.

    Their summaries and siblings are then up to date before the manifest lists them
    (``services.derived.index.follow_removals``). Skipped when there is no index yet: building one is not worth it for the manifest.
    """
    if not index_db_path(project).exists():
        return []
    try:
        from brv_vc.services.derived.index import open_synced

        opened = open_synced(project)
        opened.close()
    except Exception:  # the index is a help here, never a reason to fail
        return []
    return list(opened.derived)


def structure_context(project: Project, now: datetime) -> str:
    """The manifest's summaries lane as text: how the knowledge is organised.

    It goes into the system prompt of query tiers 3 and 4 (seed 000: LLM queries read the
    manifest to inject structural context instead of scanning the tree). Empty when there is
    none yet.
    """
    try:
        lane = show_manifest(project, now).manifest.get("summaries", [])
        parts = []
        for row in lane:
            text = (project.tree / row["path"]).read_text(encoding="utf-8", errors="replace")
            _, body = split(text)
            folder = row["path"].rsplit("/", 1)[0] if "/" in row["path"] else "(root)"
            parts.append(f"### {folder}\n{body.strip()}")
        return "\n\n".join(parts)
    except (BrvError, OSError, KeyError):  # structure is a help, never a reason to fail
        return ""
