"""The review queue: each pending change as a rendered semantic diff, approve / reject buttons.

The buttons POST to ``/review/ID/approve`` and ``/review/ID/reject``, and a group's (one
kind, domain or dream) to ``/review/group/approve?kind=MERGE`` and the like, which call the
same ``services.review.approve`` / ``reject`` as ``brv review`` (rejecting restores the
backups byte for byte, with the later changes that built on them). The gate checks the
token and the origin of every POST.
"""

from __future__ import annotations

from collections import Counter

from brv_vc.services import review as svc
from brv_vc.tree.project import Project
from brv_vc.web.diff_html import render_diffs
from brv_vc.web.html import Markup, join, link, page, tag, url

SHOWN = 20  # pending changes rendered with their diffs on the queue page; the rest are listed


def buttons(entry_id: int) -> Markup:
    """Approve and reject, each its own POST form."""
    return join([
        tag("form", tag("button", "Approve", type="submit", class_="approve"),
            method="post", action=f"/review/{entry_id}/approve", class_="inline"),
        " ",
        tag("form", tag("button", "Reject (restore)", type="submit", class_="reject"),
            method="post", action=f"/review/{entry_id}/reject", class_="inline"),
    ])


# the group filters: the form's field (as brv review's option) and the entry's attribute
GROUPS = (("kind", "kind"), ("domain", "domain"), ("dream", "task"))


def group_forms(field: str, value: str, count: int) -> Markup:
    """Approve and reject every pending change of one group, each its own POST form."""
    return join([
        tag("form", tag("button", f"Approve all {count}", type="submit", class_="approve"),
            method="post", action=url("/review/group/approve", **{field: value}),
            class_="inline"),
        " ",
        tag("form", tag("button", f"Reject all {count} (restore)", type="submit",
                        class_="reject"),
            method="post", action=url("/review/group/reject", **{field: value}),
            class_="inline"),
    ])


def _groups(pending: list[svc.ReviewEntry]) -> Markup:
    """The groups of the pending changes, with their buttons (from two changes on)."""
    if len(pending) < 2:
        return Markup("")
    rows = []
    for field, attr in GROUPS:
        for value, count in sorted(Counter(getattr(e, attr) for e in pending).items()):
            rows.append(tag("li", tag("span", f"{field} {value}", class_="badge"),
                            f" {count} pending ", group_forms(field, value, count),
                            class_="group"))
    return tag("section", tag("h2", "Decide a group at once"),
               tag("p", "Rejecting a change also undoes the later changes that built on it; "
                        "the answer names them.", class_="hint"),
               tag("ul", join(rows), class_="plain"), class_="groups")


def _flash(done: str | None, entry_id: int | None, count: int | None = None,
           also: int | None = None) -> Markup:
    if done not in ("approved", "rejected"):
        return Markup("")
    undone = (f" {also} later change{'s' if also != 1 else ''} that built on "
              f"{'them' if count else 'it'} undone too." if also else "")
    if count is not None:
        what = "kept" if done == "approved" else "undone: their files are restored"
        return tag("p", f"{count} review entr{'y' if count == 1 else 'ies'} {done} ({what})."
                   + undone, class_="flash")
    if entry_id is not None:
        what = "kept" if done == "approved" else "undone: its files are restored"
        return tag("p", f"Review entry #{entry_id} {done} ({what}).{undone}", class_="flash")
    return Markup("")


def _card(detail: svc.ReviewDetail) -> Markup:
    e = detail.entry
    head = tag("h3", link(f"/review/{e.id}", f"#{e.id}"), " ", tag("span", e.source,
               class_="badge"), " ", e.summary)
    meta = tag("p", f"{e.created} · task {e.task} · {e.status}"
               + (f" · reason: {e.reason}" if e.reason else ""), class_="hint")
    actions = buttons(e.id) if e.status == "pending" else Markup("")
    return tag("section", head, meta, actions,
               render_diffs(detail.diffs, "no meaningful change in its files"), class_="card")


def render_queue(project: Project, *, everything: bool, done: str | None,
                 done_id: int | None, count: int | None = None,
                 also: int | None = None) -> Markup:
    """``/review``: pending changes (``everything``: decided ones too, listed)."""
    listing = svc.pending(project, all_entries=everything)
    state = ("Review is on: 'brv vc commit' and 'push' refuse pending changes."
             if listing.enabled else
             "Review is off (brv review --enable turns it on); nothing waits here.")
    pending = [e for e in listing.entries if e.status == "pending"]
    cards = [_card(svc.show(project, e.id)) for e in pending[:SHOWN]]
    rest = [tag("li", link(f"/review/{e.id}", f"#{e.id}"), " ", e.line(), " ",
                tag("span", e.status, class_="hint"))
            for e in [*pending[SHOWN:], *(e for e in listing.entries if e.status != "pending")]]
    toggle = (link("/review", "pending only") if everything
              else link(url("/review", all=1), "show decided entries too"))
    body = join([
        tag("h1", "Review", " ", tag("small", f"{len(pending)} pending")),
        _flash(done, done_id, count, also),
        tag("p", state, " ", toggle, class_="hint"), _groups(pending),
        *(cards or [tag("p", "Nothing waits for review.", class_="hint")]),
        tag("ul", join(rest), class_="plain") if rest else "",
    ])
    return page("Review", body, active="/review")


def render_one(project: Project, entry_id: int) -> Markup:
    """``/review/ID``: one change.

    Raises:
        NotFoundError: no such review entry.
    """
    detail = svc.show(project, entry_id)
    return page(f"Review #{entry_id}", join([link("/review", "← the queue"), _card(detail)]),
                active="/review")
