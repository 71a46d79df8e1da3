"""A body's sections are split by finding its heading lines exactly as the line-by-line split
does (fences and every line break str.splitlines knows included)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from brv_vc.format.body import _split_lines, join_sections, section_text, split_sections

PIECES = ["## ", "#", "##", "\n", "\r", "\r\n", "```", "~~~", " ", "\t", "a", "Relations",
          " Facts ", "\x85", "\u2028", "\x0c", "\x1e", "- @auth/jwt", "## Relations\n",
          "\n## Narrative\n", "é", "İ"]


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14).map("".join))
def test_the_split_is_the_line_by_line_split(body: str) -> None:
    assert split_sections(body) == _split_lines(body)


def test_a_plain_body() -> None:
    body = "intro\n## Raw Concept\nx\n\n## Relations\n- @a/b/c.md\n## relations\n- @d/e\n"
    preamble, sections = split_sections(body)
    assert preamble == "intro\n"
    assert [s.name for s in sections] == ["Raw Concept", "Relations", "relations"]
    assert section_text(body, "Relations") == "- @a/b/c.md\n- @d/e\n"
    assert (preamble, sections) == _split_lines(body)
    assert join_sections(preamble, sections) == body
