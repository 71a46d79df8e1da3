"""brv ui's markdown renderer: entry text is escaped before any rule adds a tag, so only our
own tags (with our own attributes) ever appear, and links go only where they may."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.web.markdown import render

OURS = re.compile(
    r"</?(h[1-6]|p|ul|ol|li|pre|code|strong|em|blockquote|hr|table|thead|tbody|tr|th|td)>"
    r'|<p class="relation">|<code class="language-[^"<>]*">|<t[hd] class="al-(left|center|right)">'
    r'|<a (class="wiki" )?href="[^"<>]*"( rel="noopener noreferrer nofollow")?>|</a>')


def _foreign_tags(html: str) -> list[str]:
    return re.findall(r"<[^>]*>?", OURS.sub("", html))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("<>\"'&/=:()[]*_`#->@ \nabcjs!")), max_size=200))
def test_no_text_becomes_a_tag_of_its_own(text: str) -> None:
    assert _foreign_tags(str(render(text, "auth/jwt/x.md"))) == []


def test_the_blocks_and_inlines_entries_use() -> None:
    html = str(render("# Title\n\nSome **bold**, *em* and `<code>`.\n\n- one\n  - two\n1. first\n"
                      "\n```\n<b>kept</b>\n```\n> quoted\n\n---\n@auth/jwt/keys.md\n",
                      "auth/jwt/x.md"))
    assert "<h1>Title</h1>" in html
    assert "<strong>bold</strong>" in html
    assert "<em>em</em>" in html
    assert "<code>&lt;code&gt;</code>" in html
    assert "<ul>\n<li>one\n<ul>\n<li>two</li>\n</ul>\n</li>" in html  # nested inside its item
    assert "<ol>\n<li>first</li>" in html
    assert "<pre><code>&lt;b&gt;kept&lt;/b&gt;\n</code></pre>" in html
    assert "<blockquote>\n<p>quoted</p>\n</blockquote>" in html
    assert "<hr>" in html
    assert '@<a href="/entry?path=auth/jwt/keys.md">auth/jwt/keys.md</a>' in html


def test_links_go_to_the_web_or_to_entries_of_the_tree_only() -> None:
    html = str(render("[w](https://example.com/a?b=1&c=2) [m](mailto:a@b.c) [r](../keys.md) "
                      "[[auth/oauth/flow|the flow]] [bad](javascript:alert(1)) "
                      "[data](data:text/html,x) [out](../../../etc/passwd) [net](//evil.example)",
                      "auth/jwt/x.md"))
    assert 'href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow"' in html
    assert 'href="mailto:a@b.c"' in html
    assert '<a href="/entry?path=auth/keys.md">r</a>' in html
    assert '<a class="wiki" href="/entry?path=auth/oauth/flow">the flow</a>' in html
    for text in ("[bad](javascript:alert(1))", "[data](data:text/html,x)",
                 "[out](../../../etc/passwd)", "[net](//evil.example)"):
        assert text in html  # left as text
    assert "javascript:" not in re.sub(r"\[bad\]\(javascript:alert\(1\)\)", "", html)


def test_code_spans_hide_markup_from_the_other_rules() -> None:
    html = str(render("`**not bold** [x](https://e.com)`"))
    assert html == "<p><code>**not bold** [x](https://e.com)</code></p>"
