"""The staged-entry check reads a canonical frontmatter once and judges every file as the
two-parse check did (same errors, keys and hints)."""

from __future__ import annotations

import pytest

from brv_vc.errors import BrvError
from brv_vc.format import entry as entry_format
from brv_vc.format import frontmatter as fm
from brv_vc.format.entry import canonical_frontmatter, decode, parse_entry
from brv_vc.format.validate import validate
from brv_vc.services import entry_check as checks  # the check's home
from brv_vc.services.vc.checks import FRONTMATTER_SCHEMA, entry_check
from brv_vc.tree.layout import Kind

CANONICAL = ('---\ntitle: "Token rotation"\nsummary: "How"\ntags: ["auth"]\nkeywords: []\n'
             'related: []\ncreatedAt: "2026-01-02T03:04:05Z"\nupdatedAt: "2026-01-02T03:04:05Z"\n'
             '---\n## Narrative\nRotate.\n')
SAMPLES = [
    CANONICAL,
    CANONICAL.replace("Rotate.", "<<<<<<< ours\nmine\n=======\ntheirs\n>>>>>>> theirs"),
    CANONICAL.replace("Rotate.", "a lone <<<<<<< in text\n<<<<<<< no block"),
    CANONICAL.replace('tags: ["auth"]', 'tags: "auth"'),
    CANONICAL.replace('createdAt: "2026-01-02T03:04:05Z"', 'createdAt: "yesterday"'),
    "---\ntitle: Plain YAML\ntags: [a, b]\nmaturity: core\n---\nbody\n",
    "---\ntitle: [unclosed\n---\nbody\n",
    "---\nsummary: no title\n---\n# Heading title\nbody\n",
    "---\nsummary: no title, no heading\n---\nbody\n",
    "# Only a heading\nbody\n",
    "no frontmatter, no heading\n",
    '---\ntitle: ""\n---\nbody\n',
    "---\ntitle: Dated\ncreatedAt: 12\n---\nbody\n",
]


def _before(data: bytes, file: str, kind: Kind) -> None:
    """The check as it was: parse_entry, then the canonical frontmatter read again."""
    stem = file.rsplit("/", 1)[-1].removesuffix(".md")
    text = decode(data, file=file)
    entry = parse_entry(text, file=file, stem=stem)
    if kind is not Kind.ENTRY:
        return
    canonical = canonical_frontmatter(text)
    if canonical is not None:
        values = canonical[0]
    else:
        source, _ = fm.split(text, file=file)
        if source is None:
            return
        values = {f.key: f.value for f in fm.load(source, file=file)}
        if not values.get("title"):
            values["title"] = entry.title
    validate(values, FRONTMATTER_SCHEMA, file=file)


def _outcome(check, data: bytes, file: str, kind: Kind):  # type: ignore[no-untyped-def]
    try:
        check(data, file, kind)
    except BrvError as error:
        return (type(error).__name__, error.message, error.hint, error.key)
    return None


@pytest.mark.parametrize("kind", [Kind.ENTRY, Kind.CONTEXT])
@pytest.mark.parametrize("text", SAMPLES)
def test_the_check_judges_as_before(text: str, kind: Kind) -> None:
    file = "auth/jwt/context.md" if kind is Kind.CONTEXT else "auth/jwt/token_rotation.md"
    data = text.encode("utf-8")
    assert _outcome(entry_check, data, file, kind) == _outcome(_before, data, file, kind)


def test_a_canonical_entry_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = entry_format.canonical_frontmatter

    def counted(text: str):  # type: ignore[no-untyped-def]
        calls.append(text)
        return real(text)

    monkeypatch.setattr(checks, "canonical_frontmatter", counted)
    monkeypatch.setattr(entry_format, "canonical_frontmatter", counted)
    entry_check(CANONICAL.encode("utf-8"), "auth/jwt/token_rotation.md", Kind.ENTRY)
    assert len(calls) == 1
