"""Search: the ranking of ``brv search``, excerpts highlighted, results as you type.

The resident session ``brv mcp`` uses answers; ``static/ui.js`` reads ``/api/search``.

Looking in the UI is ``--no-record``: a search typed letter by letter would otherwise count
every prefix as a hit and move importance.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from brv_vc.cli.plain import jsonable, versioned
from brv_vc.web.html import Markup, entry_href, esc, join, link, page, tag

LIMIT = 20


def search(session: Any, query: str, now: datetime, limit: int = LIMIT) -> Any:
    """The ``SearchResult`` of ``query`` (raises the service's QueryError on an empty one)."""
    return session.search(query, now=now, limit=limit, record=False)


def needles(result: Any) -> tuple[str, ...]:
    """What to highlight: the query's words and their stems (``rotation`` marks ``rotate``)."""
    from brv_vc.index.terms import stem

    return tuple(dict.fromkeys([*result.terms, *(stem(t) for t in result.terms)]))


def answer(result: Any) -> dict[str, Any]:
    """The JSON of ``brv search --json`` for a result, plus what the page highlights."""
    return versioned({"ok": True, **jsonable(result), "highlight": list(needles(result))})


def highlight(text: str, terms: tuple[str, ...]) -> Markup:
    """``text`` escaped, each query term (as a word prefix) wrapped in ``<mark>``."""
    words = sorted({t for t in terms if t}, key=len, reverse=True)
    if not words:
        return esc(text)
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    out, last = [], 0
    for m in pattern.finditer(text):
        out += [esc(text[last:m.start()]), tag("mark", m.group(0))]
        last = m.end()
    out.append(esc(text[last:]))
    return join(out)


def results(result: Any) -> Markup:
    """The result list, as the script builds it."""
    marks = needles(result)
    items = [tag("li", link(entry_href(h.path), h.title or h.path),
                 tag("span", f" [{round(h.score * 100)}%] {h.path}", class_="path"), tag("br"),
                 tag("span", highlight(h.excerpt or "", marks), class_="excerpt"))
             for h in result.results]
    return join(items)


def render(query: str, result: Any | None, problem: str | None) -> Markup:
    """The search page (``result`` None before a query)."""
    status = ""
    if problem:
        status = problem
    elif result is not None:
        status = f"{len(result.results)} result(s)" + (
            " (the question looks outside this tree)" if result.out_of_domain else "")
    box = tag("input", id="q", type="search", name="q", value=query, autofocus=True,
              autocomplete="off", placeholder="Search the knowledge (same ranking as brv search)")
    form = tag("form", box, action="/search", method="get")
    body = join([tag("h1", "Search"), form, tag("p", status, id="status", class_="hint"),
                 tag("ul", results(result) if result is not None else "", id="results",
                     class_="results")])
    return page(f"Search {query}" if query else "Search", body, active="/search")
