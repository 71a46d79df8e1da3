"""The ASGI application of ``brv ui``.

Its routes (``web/pages.py``) guarded by the site's error boundary (``web/site.py``), the
static files, and the token gate (``web/guard.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from importlib import resources

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from brv_vc.clock import utcnow
from brv_vc.tree.project import Project
from brv_vc.web import pages
from brv_vc.web.guard import Guard
from brv_vc.web.site import Site, guarded

STATIC = {"ui.css": "text/css; charset=utf-8", "ui.js": "text/javascript; charset=utf-8",
          "graph.js": "text/javascript; charset=utf-8",
          # vendored, never fetched at run time: static/README.md says which and whence
          "cytoscape.min.js": "text/javascript; charset=utf-8"}


def build_app(project: Project, token: str,
              clock: Callable[[], datetime] = utcnow) -> Guard:
    """The application for ``project``, behind the gate of ``token`` (see ``web.guard``)."""
    site = Site(project, clock)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:
            return Response("not found\n", status_code=404, media_type="text/plain")
        data = resources.files("brv_vc.web").joinpath("static", name).read_bytes()
        return Response(data, media_type=STATIC[name])

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    routes = [Route(path, guarded(site, pages.bind(site, handler)), methods=methods)
              for path, handler, methods in pages.ROUTES]
    routes += [Route("/static/{name}", static), Route("/favicon.ico", favicon)]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        site.warm()
        yield
        site.close()

    return Guard(Starlette(routes=routes, lifespan=lifespan), token)
