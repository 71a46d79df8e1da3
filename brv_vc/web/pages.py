"""The routes of ``brv ui``: each reads the request and hands it to its page module."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from brv_vc.web.html import url
from brv_vc.web.site import Handler, Site, html, int_param, see_other

Page = Callable[[Site, Request], Awaitable[Response]]


def bind(site: Site, page: Page) -> Handler:
    """The handler of ``page`` for ``site``."""

    async def handler(request: Request) -> Response:
        return await page(site, request)

    return handler


async def tree(site: Site, request: Request) -> Response:
    """``/?path=FOLDER&page=N``: one folder of the tree."""
    from brv_vc.web import tree_page

    path = request.query_params.get("path", "")
    project = site.settled()
    return html(tree_page.render(project, site.whole_tree(), path,
                                 int_param(request, "page", 1), site.clock()))


async def entry(site: Site, request: Request) -> Response:
    """``/entry?path=PATH``: one entry."""
    from brv_vc.errors import InvalidPathError
    from brv_vc.web import entry_page

    path = request.query_params.get("path", "")
    if not path:
        raise InvalidPathError("which entry? /entry?path=domain/topic/entry.md",
                               hint="open one from the tree or a search")
    return html(entry_page.render(site.settled(), path, site.clock()))


async def search(site: Site, request: Request) -> Response:
    """``/search?q=TEXT``: the page (results rendered too, for a browser without script)."""
    from brv_vc.errors import BrvError
    from brv_vc.web import search_page

    query = request.query_params.get("q", "").strip()
    result, problem = None, None
    if query:
        try:
            result = search_page.search(site.search_session(), query, site.clock())
        except BrvError as error:  # stop words only, punctuation: say so on the page
            problem = error.message
    return html(search_page.render(query, result, problem))


async def api_search(site: Site, request: Request) -> Response:
    """``/api/search?q=TEXT[&limit=N]``: ``brv search --json``'s answer."""
    from brv_vc.web import search_page

    limit = int_param(request, "limit", search_page.LIMIT)
    result = search_page.search(site.search_session(), request.query_params.get("q", ""),
                                site.clock(), limit)
    return JSONResponse(search_page.answer(result))


async def review_queue(site: Site, request: Request) -> Response:
    """``/review[?all=1]``: the queue."""
    from brv_vc.web import review_page

    done = request.query_params.get("done")
    return html(review_page.render_queue(
        site.settled(), everything=request.query_params.get("all") == "1", done=done,
        done_id=int_param(request, "id", 0) or None,
        count=int_param(request, "count", -1) if "count" in request.query_params else None,
        also=int_param(request, "also", 0) or None))


async def review_one(site: Site, request: Request) -> Response:
    """``/review/ID``: one change and its buttons."""
    from brv_vc.web import review_page

    return html(review_page.render_one(site.settled(), request.path_params["id"]))


async def review_decide(site: Site, request: Request) -> Response:
    """``POST /review/ID/approve|reject``: ``brv review approve|reject ID``."""
    from brv_vc.services import review

    entry_id = request.path_params["id"]
    decide = review.approve if request.url.path.endswith("/approve") else review.reject
    site.flush()  # a pending search hit must not bring back a restored path's signals
    decision = decide(site.settled(), site.clock(), [entry_id])
    return see_other(url("/review", done=decision.action, id=entry_id,
                         also=len(decision.also) or None))


async def review_group(site: Site, request: Request) -> Response:
    """``POST /review/group/approve|reject?kind=K&domain=D&dream=ID``: one group at once.

    As ``brv review approve|reject --kind K --domain D --dream ID`` (one filter at least).
    """
    from brv_vc.errors import UsageError
    from brv_vc.services import review
    params = request.query_params
    kind, domain, task = (params.get(field) or None for field in ("kind", "domain", "dream"))
    if kind is None and domain is None and task is None:
        raise UsageError("which group? /review/group/approve?kind=MERGE (or domain=, dream=)",
                         hint="use the group buttons of the review page")
    decide = review.approve if request.url.path.endswith("/approve") else review.reject
    site.flush()  # a pending search hit must not bring back a restored path's signals
    decision = decide(site.settled(), site.clock(), group=review.Group(kind=kind, domain=domain, task=task))
    return see_other(url("/review", done=decision.action, count=len(decision.entries),
                         also=len(decision.also) or None))


async def dreams(site: Site, request: Request) -> Response:
    """``/dreams``: the dream logs."""
    from brv_vc.web import dream_page

    return html(dream_page.render_logs(site.settled(), request.query_params.get("undone")))


async def dream_log(site: Site, request: Request) -> Response:
    """``/dreams/ID``: one dream's operations."""
    from brv_vc.web import dream_page

    return html(dream_page.render_log(site.settled(), request.path_params["id"]))


async def dream_undo(site: Site, request: Request) -> Response:
    """``POST /dreams/ID/undo``: ``brv dream --undo ID``."""
    from brv_vc.services import dream
    from brv_vc.web import dream_page

    dream_id = dream_page.check_id(request.path_params["id"])
    site.flush()
    done = dream.undo(site.settled(), site.clock(), dream_id)
    return see_other(url("/dreams", undone=done.id))


async def changes(site: Site, request: Request) -> Response:
    """``/vc``: status and the diffs of what is not shared."""
    from brv_vc.web import vc_page

    return html(vc_page.render(site.settled(),
                               uncommitted=request.query_params.get("uncommitted") == "1"))


async def graph(site: Site, request: Request) -> Response:
    """``/graph?entry=PATH`` or ``/graph?domain=FOLDER`` (or ``folder=``): the links around one place."""
    from brv_vc.web import graph_page

    params = request.query_params
    folder = params.get("domain") or params.get("folder")  # link_graph's nodes say folder
    return html(graph_page.render(site.settled(), params.get("entry"), folder, site.clock()))


ROUTES: list[tuple[str, Page, list[str]]] = [
    ("/", tree, ["GET"]),
    ("/entry", entry, ["GET"]),
    ("/search", search, ["GET"]),
    ("/api/search", api_search, ["GET"]),
    ("/review", review_queue, ["GET"]),
    ("/review/{id:int}", review_one, ["GET"]),
    ("/review/{id:int}/approve", review_decide, ["POST"]),
    ("/review/{id:int}/reject", review_decide, ["POST"]),
    ("/review/group/approve", review_group, ["POST"]),
    ("/review/group/reject", review_group, ["POST"]),
    ("/dreams", dreams, ["GET"]),
    ("/dreams/{id}", dream_log, ["GET"]),
    ("/dreams/{id}/undo", dream_undo, ["POST"]),
    ("/vc", changes, ["GET"]),
    ("/graph", graph, ["GET"]),
]
