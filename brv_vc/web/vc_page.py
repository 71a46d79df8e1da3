"""The knowledge under git: ``brv vc status`` and the semantic diffs of what is not shared.

Three diffs, each ``brv vc diff``'s: uncommitted changes (HEAD -> working tree), unpushed
commits (upstream..HEAD) and incoming ones (HEAD..upstream, as of the last fetch: this
page never talks to a remote).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from brv_vc.errors import NotInitializedError
from brv_vc.services import vc
from brv_vc.tree.project import Project
from brv_vc.vc.repo import KnowledgeRepo
from brv_vc.web.diff_html import render_diffs
from brv_vc.web.html import Markup, entry_href, join, link, page, tag, url


def _changes(title: str, changes: tuple[object, ...]) -> Markup:
    if not changes:
        return Markup("")
    items = []
    for change in changes:
        path = str(getattr(change, "path", change))
        kind = getattr(change, "change", "untracked")
        items.append(tag("li", tag("span", kind, class_="badge"), " ",
                         link(entry_href(path), path) if path.endswith(".md") else path))
    return join([tag("h3", title, " ", tag("small", str(len(changes)))),
                 tag("ul", join(items), class_="plain")])


def _diff(repo: KnowledgeRepo, spec: str | None, title: str, empty: str,
          report: Any = None) -> Markup:
    report = report or vc.semantic_diff(repo, spec)
    counts = ", ".join(f"{n} {s}" for s, n in sorted(report.counts().items()))
    return join([tag("h2", title, " ", tag("small", counts or "none")),
                 tag("p", f"{report.base} → {report.target}", class_="hint"),
                 render_diffs(report.entries, empty)])


def render(project: Project, *, uncommitted: bool = False) -> Markup:
    """``/vc``: status, then the unpushed and incoming knowledge changes.

    ``uncommitted`` adds the semantic diff of the working tree against HEAD: a second
    look at every file of the tree (git diff), so asked for by a link rather than paid for
    at every view.
    """
    try:
        repo = vc.prepare(project)
    except NotInitializedError as error:
        body = join([tag("h1", "Changes"), tag("p", error.message),
                     tag("p", "hint: ", error.hint or "", class_="hint")])
        return page("Changes", body, active="/vc")
    ahead = None
    if uncommitted and repo.head() is not None:
        # both are one look at every file of the tree by git: side by side, not one after
        # the other (git runs in its own process; this thread only waits)
        pool = ThreadPoolExecutor(1)
        ahead = pool.submit(vc.semantic_diff, repo, "HEAD")
        pool.shutdown(wait=False)
    st = vc.status(repo)
    where = f"On branch {st.branch}" + (f", tracking {st.upstream}" if st.upstream else
                                        " (no upstream: 'brv vc push -u' sets one)")
    sync = (f"{st.ahead} commit(s) to push, {st.behind} to pull (as of the last fetch)"
            if st.upstream else "")
    parts: list[object] = [
        tag("h1", "Changes"), tag("p", where, tag("br"), sync, class_="hint"),
        tag("p", "Conflict markers in: ", ", ".join(st.markers), class_="flash")
        if st.markers else "",
        _changes("Conflicted", st.conflicts), _changes("Staged", st.staged),
        _changes("Not staged", st.unstaged), _changes("Untracked", st.untracked),
    ]
    if st.clean:
        parts.append(tag("p", "Nothing to commit: the working tree is clean.", class_="hint"))
    elif not st.initial and uncommitted:
        parts.append(_diff(repo, "HEAD", "Uncommitted knowledge changes",
                           "no knowledge change (only layout or derived files)",
                           ahead.result() if ahead is not None else None))
    elif not st.initial:
        parts.append(tag("p", link(url("/vc", uncommitted=1),
                                   "Show the semantic diff of the uncommitted changes →")))
    if st.upstream and st.ahead:
        parts.append(_diff(repo, f"{st.upstream}..HEAD", "Unpushed", "nothing to push"))
    if st.upstream and st.behind:
        parts.append(_diff(repo, f"HEAD..{st.upstream}", "Incoming", "nothing to pull"))
    return page("Changes", join(parts), active="/vc")
