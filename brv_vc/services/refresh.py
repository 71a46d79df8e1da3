"""Bring derived state up to date after the tree changed.

One idempotent step shared by everything that changes the tree: curate, ``brv vc pull``,
``merge`` and ``checkout``, and the git hooks (post-merge, post-checkout, post-rewrite,
pre-commit). Running it twice does nothing the second time. Each derived layer adds its
own step here (the search index, summaries and the manifest, archives rebuilt from history).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from brv_vc.tree.project import Project


@dataclass(frozen=True)
class RefreshReport:
    """What a refresh did; ``problems`` are reported, never raised (hooks fail open)."""

    changed: tuple[str, ...]
    steps: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def refresh(project: Project, changed: Iterable[str] | None, now: datetime) -> RefreshReport:
    """Updates derived state for the changed tree paths (None: detect changes by scanning).

    Args:
        project: the project.
        changed: tree-relative paths known to have changed, or None when unknown.
        now: the clock.

    Returns:
        The report of the steps run.
    """
    paths = tuple(sorted(set(changed))) if changed is not None else ()
    steps: list[str] = []
    problems: list[str] = []
    # Summaries, abstracts/overviews and the manifest (fail-open; see services/summarize.py).
    from brv_vc.services.summarize import refresh_summaries

    summary = refresh_summaries(project, None if changed is None else paths, now)
    steps.extend(summary.steps)
    problems.extend(summary.problems)
    return RefreshReport(changed=paths, steps=tuple(steps), problems=tuple(problems))
