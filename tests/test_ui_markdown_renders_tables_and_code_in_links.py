"""brv ui renders an entry as CommonMark with GitHub's tables: a table is a <table> (alignment
as a class, the CSP refuses inline styles), inline code inside a link's text is code inside
the link (it was shown as NUL-delimited placeholders), and raw HTML in a cell stays text."""

from __future__ import annotations

from brv_vc.web.markdown import render

TABLE = "| Command | Does |\n|:--|--:|\n| `brv vc diff` | <b>diffs</b> |\n| [x](y.md) | 2 |\n"


def test_a_table_is_a_table_with_its_alignment_as_classes() -> None:
    html = str(render(TABLE, "tools/cli/commands.md"))
    assert html.startswith("<table>\n<thead>\n<tr>\n<th class=\"al-left\">Command</th>")
    assert '<th class="al-right">Does</th>' in html
    assert '<td class="al-left"><code>brv vc diff</code></td>' in html
    assert '<td class="al-right">&lt;b&gt;diffs&lt;/b&gt;</td>' in html  # raw HTML is text
    assert '<td class="al-left"><a href="/entry?path=tools/cli/y.md">x</a></td>' in html
    assert "|" not in html
    assert "style=" not in html


def test_inline_code_inside_a_link_text_is_code_inside_the_link() -> None:
    html = str(render("Run [the `brv vc` command](../vc/diff.md) or "
                      "[`brv search`](https://example.com/s).", "tools/cli/x.md"))
    assert '<a href="/entry?path=tools/vc/diff.md">the <code>brv vc</code> command</a>' in html
    assert ('<a href="https://example.com/s" rel="noopener noreferrer nofollow">'
            "<code>brv search</code></a>") in html
    assert "\x00" not in html
    assert "\ufffd" not in html


def test_a_link_that_may_not_go_keeps_its_inner_markup_as_text() -> None:
    html = str(render("[the `x` file](../../../etc/passwd) and ![logo](https://e.com/l.png)",
                      "a/b.md"))
    assert "[the <code>x</code> file](../../../etc/passwd)" in html  # left as written
    assert "<img" not in html  # nothing is fetched
    assert '!<a href="https://e.com/l.png" rel="noopener noreferrer nofollow">logo</a>' in html
