"""What every page of ``brv ui`` stands on: the site, its error boundary, response helpers.

The site is the project, the clock and the resident search session; every handler is
guarded by the boundary.

Handlers are coroutines that call the services directly, on the event loop's thread: one
person uses this server, and the resident search session's SQLite connections belong to
one thread (as in ``brv mcp``). A domain error becomes an error page with the CLI's message
and hint (404 for something missing, 400 for a bad path or value, 409 for a conflict).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from brv_vc.errors import BrvError, ConflictError, NotFoundError
from brv_vc.scrub import scrub
from brv_vc.tree.project import Project
from brv_vc.web.html import Markup, error_page

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.tree_view import FolderNode

log = logging.getLogger("brv_vc.web")
Handler = Callable[[Request], Awaitable[Response]]


class Site:
    """What every page needs: the project, the clock and the resident search session."""

    def __init__(self, project: Project, clock: Callable[[], datetime]) -> None:
        self.project = project
        self.clock = clock
        self._search: Any = None
        self._tree: tuple[tuple[int, int], FolderNode] | None = None

    def search_session(self) -> Any:
        """The resident ``SearchSession`` (opened on the first search)."""
        from brv_vc.services.query import SearchSession

        if self._search is None:
            self._search = SearchSession(self.project)
        return self._search

    def settled(self) -> Project:
        """The project, after settling what a killed writer left (as every brv command does)."""
        from brv_vc.services import recovery

        if recovery.left_behind(self.project):
            recovery.settle(self.project, self.clock())
        return self.project

    def whole_tree(self) -> FolderNode:
        """The folder tree of every indexed entry, built again only when the index changed.

        Building it costs a path check for each of 25,000 entries; a page view that changed
        nothing reuses it. The key: SQLite's ``data_version`` (moves when another process
        writes the index, e.g. a curate in a terminal) and the session's generation (moves
        when its own check adds or removes a document).
        """
        from brv_vc.services.glance import indexed_paths
        from brv_vc.services.tree_view import build_tree

        session = self.search_session()
        conn = session.opened().conn
        key = (conn.execute("PRAGMA data_version").fetchone()[0], session.generation)
        if self._tree is None or self._tree[0] != key:
            built = build_tree(self.project, "", listing=indexed_paths(self.project))
            self._tree = (key, built)
        return self._tree[1]

    def warm(self) -> None:
        """Opens the index and builds the tree while the browser starts. Fails open.

        The socket already listens: a first request waits in its queue, never fails.
        """
        from brv_vc.services.derived import RESIDENT

        lent = RESIDENT.set(self.search_session())
        try:
            self.whole_tree()
        except Exception:  # the first page will say what is wrong, with its hint
            log.debug("brv ui: warming up failed", exc_info=True)
        finally:
            RESIDENT.reset(lent)

    def flush(self) -> None:
        """Writes the search session's pending hits (before a change to the tree)."""
        if self._search is not None:
            self._search.flush()

    def close(self) -> None:
        """Closes the search session's connections."""
        if self._search is not None:
            self._search.close()
            self._search = None


def _status(error: BrvError) -> int:
    if isinstance(error, NotFoundError):
        return 404
    if isinstance(error, ConflictError):
        return 409
    return 400


def html(body: Markup, status: int = 200) -> HTMLResponse:
    """An HTML answer."""
    return HTMLResponse(str(body), status_code=status)


def guarded(site: Site, run: Handler) -> Handler:
    """Turns a domain error into its error page (or JSON for ``/api/``).

    A page that only reads runs with the resident index lent to the services
    (``derived.RESIDENT``): no opening and no whole-tree change check per call, the folder
    watch tells what changed. A change (POST) takes the ordinary path of the CLI.
    """
    from brv_vc.services.derived import RESIDENT

    async def handler(request: Request) -> Response:
        lent = RESIDENT.set(site.search_session() if request.method in ("GET", "HEAD")
                            else None)
        try:
            return await run(request)
        except BrvError as error:  # errors quote git, HTTP libraries: credentials masked
            status = _status(error)
            if request.url.path.startswith("/api/"):
                shown = {key: scrub(value) for key, value in error.to_dict().items()}
                return JSONResponse({"ok": False, "version": 1, "error": shown},
                                    status_code=status)
            return html(error_page(status, scrub(error.message),
                                   scrub(error.hint) if error.hint else None), status)
        except Exception as exc:  # a bug: say so on the page, keep serving the others
            from brv_vc.tree.diskerrors import disk_error

            disk = disk_error(exc)  # a full or read-only disk is no bug
            if disk is not None:
                return html(error_page(500, disk.message, disk.hint), 500)
            log.exception("brv ui: internal error on %s", request.url.path)
            return html(error_page(500, scrub(f"internal error: {type(exc).__name__}: {exc}"),
                                   "this is a bug in brv; the traceback is in the terminal "
                                   "running brv ui"), 500)
        finally:
            RESIDENT.reset(lent)

    return handler


def int_param(request: Request, name: str, default: int) -> int:
    """An integer query parameter (the default when absent or not a number)."""
    try:
        return int(request.query_params.get(name, default))
    except ValueError:
        return default


def see_other(href: str) -> RedirectResponse:
    """After a POST: back to a page (303, so a reload does not post again)."""
    return RedirectResponse(href, status_code=303)
