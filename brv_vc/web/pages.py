"""The routes of ``brv ui``: each reads the request and hands it to its page module."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from brv_vc.web.site import Handler, Site, html, int_param

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
    return html(tree_page.render(site.settled(), path, int_param(request, "page", 1),
                                 site.clock()))


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


ROUTES: list[tuple[str, Page, list[str]]] = [
    ("/", tree, ["GET"]),
    ("/entry", entry, ["GET"]),
    ("/search", search, ["GET"]),
    ("/api/search", api_search, ["GET"]),
]
