"""Building HTML by hand, escaped by default.

Every page is a string assembled here: ``esc`` is applied to every value that is not
already markup (``Markup``), so text from an entry, a commit or a remote can never become
a tag. Small on purpose: the project has no template engine, and stdlib escaping is all
these pages need.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from urllib.parse import urlencode

from brv_vc import __version__


class Markup(str):
    """A string that is HTML already (built by these helpers); ``esc`` leaves it as it is."""

    __slots__ = ()


# control characters (but tab and newline) shown as U+FFFD: HTML has no text form for NUL
_CONTROLS = {c: "\ufffd" for c in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F]}


def esc(value: object) -> Markup:
    """``value`` as HTML text: markup stays, anything else is escaped (quotes too)."""
    if isinstance(value, Markup):
        return value
    return Markup(escape("" if value is None else str(value), quote=True).translate(_CONTROLS))


def join(parts: Iterable[object], sep: str = "") -> Markup:
    """Concatenates parts, escaping each one that is not markup."""
    return Markup(sep.join(esc(p) for p in parts))


VOID = frozenset({"br", "hr", "img", "input", "meta", "link"})


def tag(name: str, /, *children: object, **attrs: object) -> Markup:
    """``<name attrs>children</name>``; ``class_`` for ``class``, ``None`` drops an attribute."""
    shown = "".join(
        f' {k.rstrip("_").replace("_", "-")}="{esc(v)}"' if v is not True else f" {k.rstrip('_')}"
        for k, v in attrs.items() if v is not None and v is not False
    )
    if name in VOID:
        return Markup(f"<{name}{shown}>")
    return Markup(f"<{name}{shown}>{join(children)}</{name}>")


def url(where: str, /, **params: object) -> str:
    """``where?params`` with the values encoded (None values left out)."""
    given = {k: str(v) for k, v in params.items() if v is not None}
    return where + ("?" + urlencode(given) if given else "")


def link(href: str, /, *children: object, **attrs: object) -> Markup:
    """An ``<a>`` to ``href``."""
    return tag("a", *children, href=href, **attrs)


NAV = (("/", "Tree"), ("/search", "Search"), ("/review", "Review"), ("/dreams", "Dreams"),
       ("/vc", "Changes"), ("/graph", "Graph"))


def page(title: str, body: object, *, active: str = "", scripts: Sequence[str] = ()) -> Markup:
    """A whole page: head with our stylesheet and script, the navigation, then ``body``.

    ``scripts``: more of our static files the page runs (after ``ui.js``, in order).
    """
    more = "".join(f'<script src="/static/{esc(name)}" defer></script>' for name in scripts)
    nav = join(link(href, label, class_="on" if href == active else None) for href, label in NAV)
    return Markup(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
        f"<title>{esc(title)} · brv</title>"
        "<link rel=\"stylesheet\" href=\"/static/ui.css\">"
        f"<script src=\"/static/ui.js\" defer></script>{more}</head><body>"
        f"<header><span class=\"brand\">brv</span><nav>{nav}</nav>"
        f"<form class=\"quick\" action=\"/search\" method=\"get\">"
        f"<input name=\"q\" placeholder=\"Search\" aria-label=\"Search\"></form></header>"
        f"<main>{esc(body)}</main>"
        f"<footer>brv {esc(__version__)} · local view, this machine only</footer>"
        "</body></html>\n"
    )


def error_page(status: int, message: str, hint: str | None = None) -> Markup:
    """The body of a refused request (a domain error's message and hint)."""
    heading = {404: "Not found", 500: "Error"}.get(status, "Refused")
    parts = [tag("h1", heading), tag("p", message)]
    if hint:
        parts.append(tag("p", "hint: ", hint, class_="hint"))
    return page("Error", join(parts))


def entry_href(path: str) -> str:
    """The page of one entry."""
    return url("/entry", path=path)


def folder_href(path: str, page_no: int | None = None) -> str:
    """The tree page of one folder ('' = the root)."""
    return url("/", path=path or None, page=page_no if page_no and page_no > 1 else None)
