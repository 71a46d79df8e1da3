"""``brv vc resolve``: settle the conflicts plain git left that brv's knowledge rules decide."""

from __future__ import annotations

from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.vc.options import emit_sync
from brv_vc.services import vc


def _text(result: Any) -> str:
    if not result.operation:
        return "no conflict to resolve"
    lines = [f"folded {f.source} into {f.target}: merged away there, changed here "
             f"(the change of {f.commit[:12]}); it stays deleted" for f in result.folded]
    lines += [f"left: {c.path} ({c.change})" for c in result.conflicts]
    if result.operation == "unknown":
        lines.append("nothing folded: git stopped in an operation brv does not read (not a "
                     "merge, rebase, cherry-pick or the newest stash's pop)")
    elif not result.folded:
        lines.append(f"no conflict of the {result.operation} is one brv decides")
    lines.append(f"next: {result.next_step}")
    return "\n".join(lines)


@click.command("resolve")
@json_option
@pass_app
def resolve(app: AppContext, as_json: bool) -> None:
    """Settle what plain git left in conflict that brv decides (exit 1 when some are left).

    After 'git pull', 'git merge', 'git stash pop', 'git rebase' or 'git cherry-pick' stopped:
    an entry MERGEd away on one side and changed on the other is folded into the MERGE's
    target and stays deleted (what 'brv vc pull' and 'brv vc merge' do themselves). The rest
    are true conflicts, left for you. Nothing is committed.

    \b
    Example:
      git stash pop || brv vc resolve --json
    """
    project = app.project()
    emit_sync(vc.resolve(project, vc.prepare(project), app.now), as_json, _text)
