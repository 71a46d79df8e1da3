"""``brv vc recover``: after a git command was killed (a stale index.lock, a pull cut short)."""

from __future__ import annotations

from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit


def _text(result: Any) -> str:
    lines = []
    lines += [f"removed the stale git lock {p}" for p in result.locks_removed]
    lines += [f"removed git's leftover merge file {p}" for p in result.temps_removed]
    verbs = {"finished": "finished the interrupted merge (HEAD and your commits are kept)",
             "aborted": "undid the interrupted merge: the files it brought in are back as "
                        "they were at HEAD, which did not move",
             "in progress": "a merge is still in progress"}
    if result.merge:
        lines.append(verbs[result.merge])
    if result.after is not None:
        lines += [f" rebuilt archive: {p}" for p in result.after.archived]
        lines += [f" warning: {p}" for p in result.after.problems]
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines) or "nothing to recover: no stale lock, no interrupted merge"


@click.command("recover")
@json_option
@pass_app
def recover(app: AppContext, as_json: bool) -> None:
    """Recover from a killed git command: remove stale git locks, finish or undo the merge.

    A lock (index.lock, HEAD.lock, ORIG_HEAD.lock, a ref's lock) is removed only when no git
    process runs in the repository, looked at twice a second apart. HEAD never moves back.

    \b
    Example:
      brv vc recover --json
    """
    from brv_vc.services import vc

    project = app.project()
    repo = vc.prepare(project)
    emit(vc.recover(project, repo, app.now), as_json, _text)
