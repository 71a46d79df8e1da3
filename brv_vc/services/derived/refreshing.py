"""Bring derived state up to date after the tree changed.

One idempotent step shared by everything that changes the tree: curate, ``brv vc pull``,
``merge`` and ``checkout``, and the git hooks (post-merge, post-checkout, post-rewrite,
pre-commit). Running it twice does nothing the second time. Each derived layer adds its
own step here (the search index, summaries and the manifest, archives rebuilt from history).

``defer=True`` (the pre-commit hook, which runs inside ``git commit`` within 500 ms) does the
part a reader would miss at once: the index and the folder summaries (``_index.md``) along
the changed paths. Abstracts/overviews of the changed entries are queued, not written, and
the manifest is left as it is; the next refresh (curate, merge, checkout, any other hook),
``brv summarize`` or ``brv manifest`` brings both up to date.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from brv_vc.record import NamedTuple
from brv_vc.tree.project import Project


class RefreshReport(NamedTuple):
    """What a refresh did; ``problems`` are reported, never raised (hooks fail open)."""

    changed: tuple[str, ...]
    steps: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def refresh(
    project: Project, changed: Iterable[str] | None, now: datetime, *, defer: bool = False,
    manifest: bool = True,
) -> RefreshReport:
    """Updates derived state for the changed tree paths (None: detect changes by scanning).

    Args:
        project: the project.
        changed: tree-relative paths known to have changed, or None when unknown.
        now: the clock.
        defer: queue abstracts and leave the manifest for a later refresh (see above).
        manifest: False leaves the manifest to its next reader (``brv manifest`` and every
            other reader rebuild it when stale): the git hooks, whose budget a whole-tree
            scan would not fit.

    Returns:
        The report of the steps run.
    """
    paths = tuple(sorted(set(changed))) if changed is not None else ()
    steps: list[str] = []
    problems: list[str] = []
    noticed = _index_step(project, paths if changed is not None else None, steps, problems)
    # Summaries, abstracts/overviews and the manifest (fail-open; see services/derived/summaries.py).
    # Removals the index noticed on its own (an entry deleted or moved by hand or by plain
    # git) are followed too, so their folders' summaries and siblings do not go stale.
    from brv_vc.services.derived.summaries import refresh_summaries

    along = None if changed is None else sorted({*paths, *noticed})
    summary = refresh_summaries(project, along, now, defer=defer, manifest=manifest)
    steps.extend(summary.steps)
    problems.extend(summary.problems)
    return RefreshReport(changed=paths, steps=tuple(steps), problems=tuple(problems))


def _index_step(
    project: Project, paths: tuple[str, ...] | None, steps: list[str], problems: list[str]
) -> list[str]:
    """Search index: re-read the changed files (or walk the whole tree); fails open.

    Returns:
        The paths a removal the sync noticed touches (see :func:`services.derived.index.removals`).
    """
    try:
        from brv_vc.services.derived.index import open_synced, removals

        # known paths: those files alone (even when an in-place edit kept their folder's
        # mtime), never a walk or stat pass over the tree; changes made elsewhere by hand are
        # the next reader's (search and query run the in-place check). Unknown: a full walk.
        opened = (open_synced(project, mode="full", follow=False) if paths is None
                  else open_synced(project, follow=False, paths=list(paths)))
        try:
            noticed = removals(opened.report)
        finally:
            opened.close()
        steps.append("index")
        problems.extend(n for n in opened.notes if n.startswith("skipped "))
        return noticed
    except Exception as exc:  # fail open: a broken index must never block a tree change
        problems.append(f"index: {type(exc).__name__}: {exc}")
        return []
