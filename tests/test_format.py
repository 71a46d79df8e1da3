"""The knowledge file format: seed 000's example, ByteRover 3.x files, unknown keys, bad files,
and the frontmatter JSON Schema agreeing with the parser."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from brv_vc.errors import FormatError
from brv_vc.format import frontmatter as fm
from brv_vc.format.body import Fact, section_text
from brv_vc.format.entry import Entry, parse_entry, serialize_entry
from brv_vc.format.validate import errors_of
from brv_vc.services.curate.content import parse_raw_blocks

FIXTURES = Path(__file__).parent / "fixtures"


def load(name: str) -> Entry:
    path = FIXTURES / name
    return parse_entry(path.read_bytes(), file=name, stem=path.stem)


def test_seed_000_example_loads_and_keeps_its_bytes() -> None:
    data = (FIXTURES / "seed000_example.md").read_bytes()
    entry = load("seed000_example.md")
    assert entry.title == "JWT Token Generation"
    assert entry.tags == ("auth", "jwt", "security")
    assert entry.keywords == ("token", "access_token", "refresh_token", "RS256")
    assert entry.related == (
        "authentication/session-management",
        "database/user-models/token-storage",
    )
    assert entry.created_at == "2025-03-18T10:00:00Z"
    assert entry.facts() == [
        Fact("Access tokens are signed with RS256 algorithm", "jwt_secret", "convention"),
        Fact(
            "Refresh tokens are single-use and rotated on each renewal",
            "refresh_token",
            "convention",
        ),
        Fact("Token pairs are stored in the database for revocation tracking", None, "project"),
    ]
    # a '## ' line inside a fenced block is code, not a section
    assert "## not a section" in section_text(entry.body, "Narrative")
    assert serialize_entry(entry) == data


def test_byterover_figure_3_entry_loads_with_legacy_fields_kept() -> None:
    entry = load("byterover_figure3.md")
    assert entry.title == "Auth-Billing Circular Dependency"
    assert entry.related == (
        "architecture/module_boundaries/auth_service_deps.md",
        "tech_debt/prioritization/q1_2026_assessment.md",
    )
    assert entry.created_at == "2026-02-03T11:20:00Z"
    # the legacy lifecycle keys stay in the file (they seed the sidecar once, on first sight)
    assert [k for k, _ in entry.extra] == ["importance", "maturity", "recency", "accessCount",
                                           "updateCount"]
    assert "architecture/module_boundaries/billing_integration.md" in entry.relations()
    _, blocks = parse_raw_blocks(section_text(entry.body, "Raw Concept"))
    assert blocks["Files"] == ("src/auth/middleware.ts", "src/billing/subscriptionCheck.ts")
    assert blocks["Author"] == "architecture-agent"
    # rewriting gives the canonical form: seven fields, flow lists, quoted timestamps
    text = serialize_entry(entry).decode()
    assert text.startswith(
        '---\ntitle: "Auth-Billing Circular Dependency"\nsummary: ""\n'
        'tags: ["architecture", "circular-dependency", "tech-debt"]\n'
    )
    assert 'createdAt: "2026-02-03T11:20:00Z"\nupdatedAt: "2026-02-15T09:45:00Z"\n' in text
    assert "importance: 82\nmaturity: \"validated\"\nrecency: 0.91\n" in text
    assert parse_entry(serialize_entry(entry)) == entry


def test_byterover_js_yaml_output_loads() -> None:
    entry = load("byterover_jsyaml.md")
    assert entry.summary == "Limits: 100 requests per minute per token"
    assert entry.related == ("api_design/rest_endpoints/pagination.md",)
    assert entry.keywords == ()
    assert entry.created_at == "2026-04-08T10:48:42.000Z"
    assert entry.facts() == [Fact("100 requests per minute per token", "rate_limit", "project")]


def test_field_order_is_seed_000s() -> None:
    text = serialize_entry(
        Entry(
            title="T",
            summary="S",
            tags=("a",),
            keywords=("k",),
            related=("d/t/x.md",),
            created_at="2025-01-01T00:00:00Z",
            updated_at="2025-01-02T00:00:00Z",
        )
    ).decode()
    keys = [line.split(":")[0] for line in text.split("---\n")[1].splitlines()]
    assert keys == ["title", "summary", "tags", "keywords", "related", "createdAt", "updatedAt"]


def test_unknown_keys_are_kept_in_order_on_rewrite() -> None:
    source = (
        '---\ntitle: "T"\nowner: team-a\nreview: {by: alice, votes: 2}\nlinks: [a, b]\n'
        "---\n\nBody\n"
    )
    entry = parse_entry(source)
    assert entry.extra == (
        ("owner", "team-a"),
        ("review", {"by": "alice", "votes": 2}),
        ("links", ["a", "b"]),
    )
    again = parse_entry(serialize_entry(entry.with_changes(summary="changed")))
    assert again.extra == entry.extra
    assert again.body == "\nBody\n"


def test_yaml_implicit_types_keep_what_the_person_wrote() -> None:
    entry = parse_entry("---\ntitle: 2025-01-01\ntags: [yes, 1.10, null]\n---\n")
    assert entry.title == "2025-01-01"
    assert entry.tags == ("yes", "1.10", "null")


@pytest.mark.parametrize(
    ("data", "message", "key"),
    [
        (b"---\ntitle: [unclosed\n---\n", "malformed YAML in the frontmatter", None),
        (b"---\ntitle: a: b\n---\n", "malformed YAML in the frontmatter", None),
        (
            b"---\nsummary: no title\n---\nbody",
            "required field 'title' is missing or empty",
            "title",
        ),
        (b"---\ntitle: [a, b]\n---\n", "field 'title' must be a string, got a list", "title"),
        (
            b"---\ntitle: T\ntags: auth\n---\n",
            "field 'tags' must be a list of strings, got str",
            "tags",
        ),
        (b"---\ntitle: T\ntags: [{a: 1}]\n---\n", "field 'tags' must be a list of strings", "tags"),
        (
            b"---\ntitle: T\ncreatedAt: yesterday\n---\n",
            "field 'createdAt' is not an ISO 8601 timestamp",
            "createdAt",
        ),
        (b"---\ntitle: T\n", "the frontmatter is never closed", None),
        (b"---\n- a\n- b\n---\n", "the frontmatter is not a mapping", None),
        (b"---\ntitle: T\ntitle: U\n---\n", "frontmatter key 'title' appears twice", "title"),
        (b'---\ntitle: "caf\xe9"\n---\n', "the file is not UTF-8 text (bad byte at offset", None),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "this is a binary file", None),
    ],
)
def test_bad_files_raise_format_error_naming_file_and_key(
    data: bytes, message: str, key: str | None
) -> None:
    with pytest.raises(FormatError) as caught:
        parse_entry(data, file="auth/jwt/x.md", stem="x")
    assert message in caught.value.message
    assert caught.value.file == "auth/jwt/x.md"
    assert caught.value.key == key
    assert caught.value.hint


# Samples on which the JSON Schema and the parser must agree: accepted by both, or by neither.
SCHEMA_SAMPLES = [
    'title: "T"',
    'title: "T"\nsummary: "S"\ntags: ["a"]\nkeywords: []\nrelated: ["d/t/x.md"]\n'
    'createdAt: "2025-03-18T10:00:00Z"\nupdatedAt: "2025-04-02T14:30:00.000Z"',
    'title: "T"\nowner: team-a\nimportance: 80',
    'title: "T"\nsummary:\ntags:',
    'title: "T"\ncreatedAt: "2025-03-18"',
    'title: "T"\ncreatedAt: "2025-03-18T10:00:00+02:00"',
    'summary: "no title"',
    'title: ""',
    "title: [a]",
    "title: {a: 1}",
    'title: "T"\ntags: "auth"',
    'title: "T"\ntags: [[a]]',
    'title: "T"\nrelated: {a: b}',
    'title: "T"\ncreatedAt: "yesterday"',
    'title: "T"\nupdatedAt: "2025-13"',
    'title: "T"\nsummary: [a]',
    "title: 2024",  # YAML reads a number; the parser keeps the text "2024": both accept
    'title: "T"\nsummary: 3.5',
]


@pytest.mark.parametrize("front", SCHEMA_SAMPLES)
def test_frontmatter_schema_and_parser_agree(front: str) -> None:
    data = yaml.load(front, Loader=fm._loader())
    schema_ok = not errors_of(data, "frontmatter")
    try:
        parse_entry(f"---\n{front}\n---\n".encode())
        parser_ok = True
    except FormatError:
        parser_ok = False
    assert schema_ok == parser_ok, (front, errors_of(data, "frontmatter"))


def test_relations_and_facts_of_a_section_given_twice_all_count() -> None:
    body = ("\n## Facts\n- first fact\n\n## Relations\n@a/b/one.md\n\n## Narrative\nText.\n\n"
            "## Facts\n- second fact\n\n## relations\n@a/b/two.md\n")
    entry = Entry(title="Twice", body=body)
    assert entry.relations() == ("a/b/one.md", "a/b/two.md")
    assert [f.statement for f in entry.facts()] == ["first fact", "second fact"]
