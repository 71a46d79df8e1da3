"""An entry's canonical frontmatter is read once per process: the commit's check, the index and
the folder summaries share it, each with its own copy of the values, and the answers stay
exactly those of a fresh read."""

from __future__ import annotations

import pytest

from brv_vc.format import entry as entry_format
from brv_vc.format import frontmatter as fm
from brv_vc.format.entry import canonical_frontmatter, parse_entry
from brv_vc.index.docs import extract
from brv_vc.services.vc.checks import entry_check
from brv_vc.summary.digest import digest
from brv_vc.tree.layout import Kind

CANONICAL = ('---\ntitle: "Token rotation"\nsummary: "How we rotate"\ntags: ["auth", "jwt"]\n'
             'keywords: ["token"]\nrelated: ["auth/jwt/other.md"]\n'
             'createdAt: "2026-01-02T03:04:05Z"\nupdatedAt: "2026-01-02T03:04:05Z"\n'
             '---\n## Narrative\nRotate `src/auth/keys.py`.\n')
PATH = "auth/jwt/token_rotation.md"


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the frontmatter lines the canonical reader checks (the work a second read repeats)."""
    seen = getattr(entry_format, "_SEEN", {})
    seen.clear()
    calls: list[str] = []
    real = fm.unsafe_for_yaml

    def counted(raw: str) -> bool:
        calls.append(raw)
        return real(raw)

    monkeypatch.setattr(fm, "unsafe_for_yaml", counted)
    yield calls
    seen.clear()


def test_the_check_the_index_and_the_summaries_read_it_once(loads: list[str]) -> None:
    data = CANONICAL.encode("utf-8")
    entry_check(data, PATH, Kind.ENTRY)  # brv vc commit's check of the staged blob
    once = len(loads)
    assert once == 7  # the seven frontmatter lines
    doc = extract(PATH, bytes(data))  # the index, from the file's own bytes
    line = digest(bytes(data), stem="token_rotation")  # the folder summary
    assert len(loads) == once
    assert doc.title == line.title == "Token rotation"
    assert doc.relations == ("auth/jwt/other.md",)
    assert line.tags == ("auth", "jwt")


def test_each_caller_gets_its_own_values(loads: list[str]) -> None:
    first = canonical_frontmatter(CANONICAL)
    assert first is not None
    first[0]["tags"].append("changed")
    first[0]["title"] = "changed"
    again = canonical_frontmatter(CANONICAL)
    assert again is not None
    assert again[0]["tags"] == ["auth", "jwt"]
    assert again[0]["title"] == "Token rotation"
    assert parse_entry(CANONICAL).tags == ("auth", "jwt")


@pytest.mark.parametrize("text", [
    CANONICAL,
    CANONICAL.replace('createdAt: "2026-01-02T03:04:05Z"', 'createdAt: "yesterday"'),
    CANONICAL.replace('tags: ["auth", "jwt"]', "tags: [auth]"),
    "---\ntitle: Plain YAML\nmaturity: core\n---\nbody\n",
    "no frontmatter\n",
])
def test_a_second_read_answers_as_the_first(text: str, loads: list[str]) -> None:
    fresh = entry_format._read_canonical(text)
    assert canonical_frontmatter(text) == fresh
    assert canonical_frontmatter(text) == fresh


def test_it_holds_a_bounded_number_of_texts(loads: list[str]) -> None:
    for i in range(entry_format.SEEN_LIMIT + 10):
        canonical_frontmatter(CANONICAL.replace("Rotate", f"Rotate {i}"))
    assert len(entry_format._SEEN) <= entry_format.SEEN_LIMIT


def test_it_holds_a_bounded_size_of_texts(loads: list[str]) -> None:
    big = CANONICAL + "x" * (entry_format.SEEN_CHARS // 3)
    for i in range(5):
        canonical_frontmatter(big + str(i))
    assert sum(map(len, entry_format._SEEN)) <= entry_format.SEEN_CHARS
    assert canonical_frontmatter(big + "4") is not None
