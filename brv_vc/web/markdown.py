"""An entry's markdown as HTML: CommonMark with GitHub's tables (markdown-it-py), raw HTML off.

markdown-it-py parses; brv's own rules are hooked into its parser and renderer, never
applied to the HTML afterwards:

- raw HTML is text (``html=False``): an entry holding ``<script>`` or ``<img onerror=...>``
  shows those characters; every text and attribute is escaped by the renderer.
- links: ``http(s)`` and ``mailto`` links leave the page (``rel="noopener noreferrer
  nofollow"``); a relative link or a ``[[wiki]]`` link opens that entry of the tree; a
  link of another scheme (``javascript:``, ``data:``), a network path (``//host``) or one
  that leaves the tree stays text, as written. Images are not fetched: ``![a](b)`` reads as
  ``!`` and a link, as before.
- an ``@path`` line (a relation) links its entry.
- a table cell's alignment is a class, not a ``style`` attribute (the page's
  Content-Security-Policy refuses inline styles).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from functools import cache
from typing import Any
from urllib.parse import quote

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from brv_vc.web.html import Markup

_RELATION = re.compile(r"^@([\w./-]+)$")
_EXTERNAL = ("http://", "https://", "mailto:")
_REL = "noopener noreferrer nofollow"


def entry_url(target: str) -> str:
    """The page of a tree path (the entry page resolves ``.md`` and refuses escapes)."""
    return "/entry?path=" + quote(target, safe="/")


def _may_link(target: str) -> bool:
    """Whether ``target`` may become a link at all (its scheme; the tree check comes later)."""
    if target.lower().startswith(_EXTERNAL):
        return True
    return not (":" in target.split("/")[0] or target.startswith(("//", "\\")))


def _href(target: str, base: str) -> str | None:
    """Where a link may go, or None when it must stay text."""
    if target.lower().startswith(_EXTERNAL):
        return target
    if not _may_link(target):
        return None  # another scheme (javascript:, data:) or a network path
    if target.startswith("#"):
        return target
    path = target.split("#")[0]
    joined = posixpath.normpath(posixpath.join(base, path)) if path else base
    return None if joined.startswith("..") else entry_url(joined)


def _wiki(state: StateInline, silent: bool) -> bool:
    """``[[target]]`` or ``[[target|label]]``: a link to that entry of the tree."""
    src, start = state.src, state.pos
    if not src.startswith("[[", start):
        return False
    end = src.find("]]", start + 2)
    inner = src[start + 2:end] if end > 0 else ""
    target, _, label = inner.partition("|")
    if not target.strip() or "[" in inner or "]" in inner or "\n" in inner:
        return False
    href = _href(target.strip(), "")
    if href is None:
        return False
    if not silent:
        opened = state.push("link_open", "a", 1)
        opened.attrs = {"class": "wiki", "href": href}
        opened.meta = {"checked": True}
        state.push("text", "", 0).content = label or target
        state.push("link_close", "a", -1)
    state.pos = end + 2
    return True


def _relation(state: StateBlock, line: int, end: int, silent: bool) -> bool:
    """A line that is only ``@path``: a relation to that entry."""
    if state.sCount[line] - state.blkIndent >= 4:
        return False
    text = state.src[state.bMarks[line] + state.tShift[line]:state.eMarks[line]].strip()
    found = _RELATION.match(text)
    if found is None:
        return False
    if not silent:
        token = state.push("relation", "", 0)
        token.content = found.group(1)
        token.map = [line, line + 1]
    state.line = line + 1
    return True


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _check_links(state: StateCore) -> None:
    """Each link's address as brv allows it; a link that may not go where it says stays text."""
    base = state.env.get("base", "")
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        out: list[Token] = []
        stack: list[str | None] = []  # per open link: the text its close becomes, or None
        for token in block.children:
            if token.type == "link_open" and not token.meta.get("checked"):
                raw = str(token.attrs.get("href", ""))
                href = _href(raw, base)
                if href is None:
                    out.append(_text("["))
                    stack.append(f"]({raw})")
                    continue
                token.attrs["href"] = href
                if href.lower().startswith(_EXTERNAL):
                    token.attrs["rel"] = _REL
                stack.append(None)
            elif token.type == "link_open":
                stack.append(None)
            elif token.type == "link_close" and stack:
                closing = stack.pop()
                if closing is not None:
                    out.append(_text(closing))
                    continue
            out.append(token)
        block.children = out


def _aligned(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """A table cell: its alignment as a class (inline ``style`` is refused by the CSP)."""
    token = tokens[idx]
    style = str(token.attrs.pop("style", ""))
    if style.startswith("text-align:"):
        token.attrs["class"] = "al-" + style.split(":", 1)[1].strip()
    return f"<{token.tag}{_attrs(token)}>"


def _attrs(token: Token) -> str:
    return "".join(f' {k}="{escapeHtml(str(v))}"' for k, v in token.attrs.items())


def _relation_html(renderer: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    target = tokens[idx].content
    return (f'<p class="relation">@<a href="{escapeHtml(entry_url(target))}">'
            f"{escapeHtml(target)}</a></p>\n")


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "xhtmlOut": False, "linkify": False,
                                   "typographer": False})
    md.enable("table")
    md.disable("image")  # nothing is fetched: an image reads as '!' and a link
    md.validateLink = _may_link  # type: ignore[method-assign,assignment]
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]  # _href quotes paths
    md.inline.ruler.before("link", "wiki", _wiki)
    md.block.ruler.before("paragraph", "relation", _relation, {"alt": ["paragraph"]})
    md.core.ruler.after("inline", "brv_links", _check_links)
    md.add_render_rule("th_open", _aligned)
    md.add_render_rule("td_open", _aligned)
    md.add_render_rule("relation", _relation_html)
    return md


def render(source: str, path: str = "") -> Markup:
    """``source`` (an entry's body) as HTML; ``path`` is the entry's tree path (for links)."""
    html = _parser().render(source, {"base": posixpath.dirname(path)})
    return Markup(html.rstrip("\n"))
