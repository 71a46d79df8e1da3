"""``brv stale``: the knowledge a code change made stale (renamed, deleted or changed files)."""

from __future__ import annotations

import json
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn


def stale_text(report: Any) -> str:
    """Renders a StaleReport for people: one block per stale entry."""
    lines: list[str] = []
    for item in report.entries:
        last = item.last_commit
        plural = "commit" if item.commits_since == 1 else "commits"
        lines.append(f"{item.entry}  {item.reason} ({item.commits_since} {plural} since it "
                     f"was written; last: {last.sha[:9]} {last.date[:10]} {last.subject})")
        for path in item.files:
            new = item.renamed_to.get(path)
            own = item.file_reasons.get(path, item.reason)  # several files: each its own
            lines.append(f"  {path}" + (f" -> {new}" if new else "")
                         + (f"  ({own})" if len(item.files) > 1 else ""))
    for out in report.outside:
        lines.append(f"not linked: {out.entry} names {out.path}, outside the repository")
    if report.missing_history:
        lines.append(f"note: {report.missing_history}")
    scope = f" since {report.since}" if report.since else ""
    lines.append(f"{len(report.entries)} of {report.linked_entries} linked entries stale{scope} "
                 f"({report.commits_walked} commits read)")
    return "\n".join(lines)


def stale_payload(report: Any) -> dict[str, Any]:
    """The ``--json`` answer, built directly (records to dicts without reflection)."""
    from brv_vc.cli.plain import versioned

    def commit(c: Any) -> dict[str, str] | None:
        return None if c is None else {"sha": c.sha, "date": c.date, "subject": c.subject}

    return versioned({
        "ok": True, "repository": report.repository, "mode": report.mode,
        "since": report.since, "head": report.head,
        "entries": [{"entry": e.entry, "reason": e.reason, "files": list(e.files),
                     "renamed_to": e.renamed_to, "commits_since": e.commits_since,
                     "last_commit": commit(e.last_commit), "file_reasons": e.file_reasons}
                    for e in report.entries],
        "linked_entries": report.linked_entries, "commits_walked": report.commits_walked,
        "outside": [{"entry": o.entry, "path": o.path} for o in report.outside],
        "missing_history": report.missing_history, "notes": list(report.notes),
    })


@click.command()
@click.option("--since", "since", metavar="REV",
              help="Only changes after this revision of the code count.")
@click.option("--ops", "ops", is_flag=True,
              help="Print the curate operations that act on the report (brv curate --ops -).")
@json_option
@pass_app
def stale(app: AppContext, since: str | None, ops: bool, as_json: bool) -> None:
    """List entries whose linked files changed, were renamed or deleted since they were written.

    An entry links files through its Files: list and the repository paths its text names.
    One walk of the code's git history (renames detected by git) answers for the whole tree.
    With --ops, prints a JSON array of curate operations: an UPDATE of the Files: list for a
    renamed file, otherwise an UPDATE tagging the entry 'stale' for review.

    \b
    Example:
      brv stale
      brv stale --since v1.2 --json
      brv stale --ops > ops.json   # then apply them with brv curate
    """
    from brv_vc.services import code_links

    project = app.project()
    report = code_links.stale(project, since=since)
    for note in report.notes:
        warn(note)
    if ops:
        operations = code_links.stale_operations(project, report)
        if report.missing_history:
            warn(report.missing_history)
        click.echo(json.dumps(operations, indent=2, ensure_ascii=False))
        return
    if as_json:  # compact: the indented encoder is pure Python, ~0.1 s per 1,000 stale entries
        click.echo(json.dumps(stale_payload(report), ensure_ascii=False))
        return
    emit(report, False, stale_text)
