"""The entry page: rendered body, frontmatter, signals, relations, backlinks and git history.

Everything comes from the services ``brv show``, ``brv relations`` and the entry's history
use; the body goes through ``web.markdown`` (escaped first). Showing an entry records no
search hit, as ``brv show`` does not.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from brv_vc.services.history import EntryHistory, entry_history
from brv_vc.services.show import ShowResult, show_entry
from brv_vc.tree.project import Project
from brv_vc.web import markdown
from brv_vc.web.diff_html import render_diff
from brv_vc.web.html import Markup, entry_href, esc, folder_href, join, link, page, tag, url
from brv_vc.web.tree_page import badge, importance_bar

HISTORY = 20  # commits shown; older ones stay in 'brv vc log'


def _value(value: Any) -> Markup:
    if isinstance(value, list):
        return join((tag("code", v) for v in value), ", ") if value else esc("—")
    return esc("—" if value in (None, "") else value)


def _frontmatter(shown: ShowResult) -> Markup:
    rows = [tag("tr", tag("th", key), tag("td", _value(value)))
            for key, value in shown.frontmatter.items() if key not in ("title",)]
    return tag("table", join(rows), class_="fm")


def _signals(shown: ShowResult) -> Markup:
    s = shown.signals
    if s is None:
        return esc("")
    return tag("p", importance_bar(s.importance), " ", badge(s.maturity),
                f" · {s.access_count} hits · {s.update_count} updates · recency {s.recency:.2f}",
                "" if s.stored else " (defaults: never curated or searched)", class_="signals")


def _links(shown: ShowResult) -> Markup:
    if shown.signals is None:  # a derived file has no relations of its own
        return esc("")
    # show_entry read them from the index already: relations, backlinks, the dangling ones
    related = [tag("li", link(entry_href(r), r) if r not in shown.dangling else
                   tag("span", r, " (dangling)", class_="hint")) for r in shown.relations]
    back = [tag("li", link(entry_href(b), b)) for b in shown.backlinks]
    return join([
        tag("h3", "Related entries"),
        tag("ul", join(related), class_="plain") if related else tag("p", "none", class_="hint"),
        tag("h3", "Backlinks"),
        tag("ul", join(back), class_="plain") if back else tag("p", "none", class_="hint"),
        tag("p", link(url("/graph", entry=shown.path), "Graph of its links →")),
    ])


def _history(history: EntryHistory) -> Markup:
    if not history.tracked:
        return tag("p", "The tree is not under version control ('brv vc init').", class_="hint")
    if not history.changes:
        return tag("p", "Not committed yet.", class_="hint")
    items = []
    for i, change in enumerate(history.changes):
        head = tag("summary", tag("code", change.sha[:10]), " ", change.date[:16].replace("T", " "),
                   " · ", change.author, " · ", tag("strong", change.subject))
        body = (render_diff(change.diff, linked=False) if change.diff is not None
                else tag("p", "(layout only: nothing meaningful changed)", class_="hint"))
        items.append(tag("details", head, body, open=i == 0))
    return join(items)


def render(project: Project, path: str, now: datetime) -> Markup:
    """The page of the entry at ``path`` (``.md`` optional).

    Raises:
        NotFoundError: no such entry.  InvalidPathError: the path leaves the tree, goes
            through a symlink, or is not a regular file.
    """
    shown = show_entry(project, path, now=now)
    folder = shown.path.rpartition("/")[0]
    crumbs = tag("nav", link(folder_href(""), "context-tree"), " / ",
                 link(folder_href(folder), folder or "."), class_="crumbs")
    notes = [tag("p", note, class_="flash") for note in shown.notes]
    main = tag("div", tag("article", markdown.render(shown.body, shown.path), class_="md"))
    side = tag("aside", tag("h3", "Frontmatter"), _frontmatter(shown), _links(shown))
    history = (_history(entry_history(project, shown.path, limit=HISTORY))
               if shown.signals is not None else esc(""))
    body = join([crumbs, tag("h1", shown.title), tag("p", tag("code", shown.path), class_="path"),
                 _signals(shown), *notes, tag("div", main, side, class_="cols"),
                 tag("h2", "History"), history])
    return page(shown.title, body)
