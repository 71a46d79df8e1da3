"""Dream logs (``brv dream --log``) and undo (``brv dream --undo``) in the browser.

Only the last dream that is not undone can be undone (the service refuses the others, with
its reason); its button POSTs to ``/dreams/ID/undo``.
"""

from __future__ import annotations

import re

from brv_vc.errors import NotFoundError
from brv_vc.services import dream as svc
from brv_vc.tree.project import Project
from brv_vc.web.html import Markup, entry_href, join, link, page, tag

_ID = re.compile(r"^drm-[0-9A-Za-z_-]{1,64}$")


def check_id(dream_id: str) -> str:
    """A dream id as the logs name them (never a path).

    Raises:
        NotFoundError: anything else.
    """
    if not _ID.match(dream_id):
        raise NotFoundError(f"no dream log {dream_id}", hint="see the dreams on /dreams")
    return dream_id


def _undo_button(dream_id: str) -> Markup:
    return tag("form", tag("button", "Undo this dream", type="submit", class_="undo"),
               method="post", action=f"/dreams/{dream_id}/undo", class_="inline")


def render_logs(project: Project, undone: str | None) -> Markup:
    """``/dreams``: the state line and every dream, newest first."""
    found = svc.logs(project)
    state = found.state
    head = (f"{state['totalDreams']} dream(s), last {state['lastDreamAt'] or 'never'}, "
            f"{state['curationsSinceDream']} curation(s) since")
    last = svc.last_undoable(project)
    rows = []
    for log in found.logs:
        dream_id = str(log.get("id"))
        rows.append(tag("tr", tag("td", link(f"/dreams/{dream_id}", dream_id)),
                        tag("td", log.get("status", "?")), tag("td", log.get("startedAt", "")),
                        tag("td", svc.summary_line(log.get("summary") or {})),
                        tag("td", _undo_button(dream_id) if dream_id == last else "")))
    flash = (tag("p", f"Dream {undone} undone: its files are restored.", class_="flash")
             if undone and _ID.match(undone) else "")
    header = tag("tr", *(tag("th", h) for h in ("dream", "status", "started", "summary", "")))
    table = (tag("table", header, join(rows), class_="list") if rows
             else tag("p", "No dream yet (brv dream).", class_="hint"))
    return page("Dreams", join([tag("h1", "Dreams"), flash, tag("p", head, class_="hint"),
                                table]), active="/dreams")


def render_log(project: Project, dream_id: str) -> Markup:
    """``/dreams/ID``: one dream's operations.

    Raises:
        NotFoundError: no such dream.
    """
    log = svc.logs(project, check_id(dream_id)).logs[0]
    ops = []
    for op in log.get("operations", []):
        touched = [c.get("path") for c in op.get("changes", []) if isinstance(c, dict)]
        files = join((link(entry_href(p), p) for p in touched if p), ", ")
        ops.append(tag("li", tag("span", op.get("status", ""), class_="badge"), " ",
                       tag("b", op.get("operation", "")), " ", op.get("action", ""), " — ",
                       op.get("message", ""),
                       tag("div", "reason: ", op.get("reason"), class_="hint")
                       if op.get("reason") else "",
                       tag("div", files, class_="path") if touched else ""))
    latest = svc.last_undoable(project)
    body = join([
        link("/dreams", "← all dreams"),
        tag("h1", dream_id, " ", tag("small", log.get("status", ""))),
        tag("p", f"started {log.get('startedAt', '')} ({log.get('trigger', '')}) · ",
            svc.summary_line(log.get("summary") or {}), class_="hint"),
        _undo_button(dream_id) if dream_id == latest else "",
        tag("ul", join(ops), class_="entries") if ops else tag("p", "No operation.",
                                                               class_="hint"),
        tag("p", f"{log['skipped']} SKIP decision(s): nothing to change (each with its reason "
                 "in the log file)", class_="hint") if log.get("skipped") else "",
    ])
    return page(dream_id, body, active="/dreams")
