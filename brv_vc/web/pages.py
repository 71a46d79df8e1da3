"""The routes of ``brv ui``: each reads the request and hands it to its page module."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response

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


ROUTES: list[tuple[str, Page, list[str]]] = [
    ("/", tree, ["GET"]),
    ("/entry", entry, ["GET"]),
]
