"""``brv about PATH...``: what the tree knows about these files, and how fresh it is."""

from __future__ import annotations

import os
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn

_HOW = {"files": "Files:", "text": "named in the text", "folder": "about the folder"}


def freshness_text(fresh: Any, linked: str, what: str = "the file") -> str:
    """``written at <sha> <date>; the file changed in N commits since (last: ...)``."""
    if fresh.written is None:
        return "not committed yet (uncommitted edits count as up to date)"
    w = fresh.written
    head = f"written at {w.sha[:9]} {w.date[:10]}" if w.sha else f"updated {w.date[:10]}"
    if not fresh.changes_since:
        return f"{head}; {what} has not changed since"
    last = fresh.last
    plural = "commit" if fresh.changes_since == 1 else "commits"
    return (f"{head}; {what} changed in {fresh.changes_since} {plural} since "
            f"(last: {last.sha[:9]} {last.date[:10]} {last.subject})")


def about_text(result: Any) -> str:
    """Renders an About answer: per path, direct links first, then its folders' entries."""
    lines: list[str] = []
    for item in result.paths:
        lines.append(item.path + (f"  ({item.note})" if item.note else ""))
        if not item.direct and not item.folder:
            lines.append("  no entry describes it")
        for group in (item.direct, item.folder):
            for e in group:
                what = "the file" if e.how != "folder" else f"the folder {e.linked}"
                via = _HOW.get(e.how, e.how)
                named = f" {e.linked}" if e.how != "folder" and e.linked != item.path else ""
                lines.append(f"  {e.entry}  \"{e.title}\"  ({via}{named})")
                lines.append(f"    {freshness_text(e.freshness, e.linked, what)}")
    return "\n".join(lines)


@click.command()
@click.argument("paths", nargs=-1, required=True)
@json_option
@pass_app
def about(app: AppContext, paths: tuple[str, ...], as_json: bool) -> None:
    """Show the entries that describe these files or folders, with their freshness.

    Direct links first (an entry's Files: list, or the path named in its text), then the
    entries about the folders around it. Each says when it was written and how often the
    file changed since, from git history. A path that does not exist is a valid question.

    \b
    Example:
      brv about src/auth/jwt.py
      brv about src/auth --json
    """
    from brv_vc.services.code_links import about as ask

    # paths are read from the current folder, as git reads them
    result = ask(app.project(), [os.path.normpath(app.cwd / p) for p in paths])
    for note in result.notes:
        warn(note)
    emit(result, as_json, about_text)
