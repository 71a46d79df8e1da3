"""A small markdown renderer of our own, safe by construction: text is escaped first.

Every line of an entry is HTML-escaped before any markdown rule looks at it, so an entry
holding ``<script>`` or ``<img onerror=...>`` shows those characters as text; the rules then
add only the tags they own (headings, lists, quotes, code, emphasis, links). Link targets
are checked after escaping: ``http(s)`` and ``mailto`` links leave the page; a relative link
or a ``[[wiki]]`` link opens that entry of the tree; anything else (``javascript:``,
``data:``) is shown as text. Enough for knowledge entries; not CommonMark.
"""

from __future__ import annotations

import posixpath
import re
from html import escape, unescape
from urllib.parse import quote

from brv_vc.web.html import Markup

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)\d{1,9}[.)]\s+(.*)$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_CODE = re.compile(r"`([^`]+)`")
_WIKI = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_EM = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?!\w)|(?<![\w_])_(?!\s)(.+?)(?<!\s)_(?!\w)")
_RELATION = re.compile(r"^@([\w./-]+)$")


def entry_url(target: str) -> str:
    """The page of a tree path (the entry page resolves ``.md`` and refuses escapes)."""
    return "/entry?path=" + quote(target, safe="/")


def _href(raw: str, base: str) -> str | None:
    """Where a link may go, or None when it must stay text. ``raw`` is escaped text."""
    target = unescape(raw)
    lowered = target.lower()
    if lowered.startswith(("http://", "https://", "mailto:")):
        return target
    if ":" in target.split("/")[0] or target.startswith(("//", "\\")):
        return None  # another scheme (javascript:, data:) or a network path
    if target.startswith("#"):
        return target
    path = target.split("#")[0]
    joined = posixpath.normpath(posixpath.join(base, path)) if path else base
    return None if joined.startswith("..") else entry_url(joined)


def _inline(text: str, base: str) -> str:
    """Inline rules over escaped ``text``.

    Code spans are set aside first, so their content is never read as emphasis or a link.
    """
    held: list[str] = []

    def hold(html: str) -> str:
        held.append(html)
        return f"\x00{len(held) - 1}\x00"

    text = _CODE.sub(lambda m: hold(f"<code>{m.group(1)}</code>"), text)

    def wiki(m: re.Match[str]) -> str:
        target = unescape(m.group(1)).strip()
        href = _href(escape(target), "")
        label = m.group(2) or m.group(1)
        if href is None:
            return m.group(0)
        return hold(f'<a class="wiki" href="{escape(href)}">{label}</a>')

    def link(m: re.Match[str]) -> str:
        href = _href(m.group(2), base)
        if href is None:
            return m.group(0)
        external = href.startswith(("http://", "https://", "mailto:"))
        rel = ' rel="noopener noreferrer nofollow"' if external else ""
        return hold(f'<a href="{escape(href)}"{rel}>{m.group(1)}</a>')

    text = _WIKI.sub(wiki, text)
    text = _LINK.sub(link, text)
    text = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", text)
    text = _EM.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", text)
    return re.sub(r"\x00(\d+)\x00", lambda m: held[int(m.group(1))], text)


def render(source: str, path: str = "") -> Markup:
    """``source`` (an entry's body) as HTML; ``path`` is the entry's tree path (for links)."""
    base = posixpath.dirname(path)
    out: list[str] = []
    para: list[str] = []
    lists: list[str] = []  # open list tags, innermost last
    fence: str | None = None
    code: list[str] = []

    def close_para() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para), base)}</p>")
            para.clear()

    def close_lists() -> None:
        while lists:
            out.append(f"</{lists.pop()}>")

    for raw in source.replace("\r\n", "\n").split("\n"):
        line = escape(raw, quote=True)
        if fence is not None:
            if raw.strip().startswith(fence):
                out.append(f"<pre><code>{chr(10).join(code)}</code></pre>")
                fence, code = None, []
            else:
                code.append(line)
            continue
        if (m := _FENCE.match(raw)) is not None:
            close_para()
            close_lists()
            fence = m.group(1)
            continue
        if not raw.strip():
            close_para()
            close_lists()
            continue
        if (m := _HEADING.match(line)) is not None:
            close_para()
            close_lists()
            level = len(m.group(1))
            out.append(f"<h{level}>{_inline(m.group(2), base)}</h{level}>")
        elif _RULE.match(raw):
            close_para()
            close_lists()
            out.append("<hr>")
        elif (m := _BULLET.match(line) or _NUMBERED.match(line)) is not None:
            close_para()
            kind = "ul" if _BULLET.match(line) else "ol"
            depth = len(m.group(1).expandtabs(4)) // 2 + 1
            while len(lists) > depth or (lists and len(lists) == depth and lists[-1] != kind):
                out.append(f"</{lists.pop()}>")
            while len(lists) < depth:
                lists.append(kind)
                out.append(f"<{kind}>")
            out.append(f"<li>{_inline(m.group(2), base)}</li>")
        elif line.startswith("&gt;"):
            close_para()
            close_lists()
            out.append(f"<blockquote>{_inline(line[4:].strip(), base)}</blockquote>")
        elif (m := _RELATION.match(raw.strip())) is not None:
            close_para()
            close_lists()
            target = m.group(1)
            out.append(f'<p class="relation">@<a href="{escape(entry_url(target))}">'
                       f"{escape(target)}</a></p>")
        else:
            close_lists()
            para.append(line.strip())
    if fence is not None:  # an unclosed fence: show what it held
        out.append(f"<pre><code>{chr(10).join(code)}</code></pre>")
    close_para()
    close_lists()
    return Markup("\n".join(out))
