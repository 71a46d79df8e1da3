"""Each curate operation (seed 002 Table 1) through the service, on a real project."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from brv_vc.format.body import Fact, section_text
from brv_vc.format.entry import parse_entry, serialize_entry
from brv_vc.lifecycle import sidecar
from brv_vc.services.curate import CurateResult, run_batch, validate_ops
from brv_vc.tree import statedb
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = datetime(2026, 3, 5, 9, 30, tzinfo=UTC)


def curate(
    project: Project, *ops: dict[str, Any], now: datetime = NOW, atomic: bool = False
) -> CurateResult:
    validate_ops(list(ops))
    return run_batch(project, list(ops), now, atomic=atomic)


def read(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


def add(path: str = "auth/jwt", title: str = "Token Rotation", **extra: Any) -> dict[str, Any]:
    op = {"type": "ADD", "path": path, "title": title, "reason": "test", **extra}
    if not {"content", "rawConcept", "narrative", "facts"} & set(op):
        op["content"] = f"About {title}."  # ADD requires content
    return op


def signals(project: Project) -> dict[str, Any]:
    conn = statedb.open_state(project)
    try:
        sidecar.ensure_schema(conn)
        return {row[0]: row[1] for row in conn.execute("SELECT path, importance FROM signals")}
    finally:
        conn.close()


def test_add_writes_entry_with_all_fields_and_context_files(project: Project) -> None:
    result = curate(
        project,
        add(
            path="Auth/JWT Tokens/Refresh",
            summary="Single-use refresh tokens",
            tags=["auth", "jwt", "auth"],
            keywords=["rotation"],
            related=["@Auth/Session Mgmt/Cookies.md"],
            content="Refresh tokens are single-use.",
            facts=[
                {"statement": "Tokens rotate", "subject": "jwt", "category": "convention"},
                {"statement": "tokens   ROTATE", "subject": "JWT"},
            ],
        ),
    )
    assert result.ok
    assert result.applied[0].file == "auth/jwt_tokens/refresh/token_rotation.md"
    assert (result.summary.added, result.summary.failed) == (1, 0)
    entry = read(project, "auth/jwt_tokens/refresh/token_rotation.md")
    assert entry.title == "Token Rotation"
    assert entry.tags == ("auth", "jwt")
    assert entry.related == ("auth/session_mgmt/cookies.md",)
    assert entry.created_at == entry.updated_at == "2026-03-01T12:00:00Z"
    assert entry.facts() == [Fact("Tokens rotate", "jwt", "convention")]  # de-duplicated by key
    assert section_text(entry.body, "Narrative").strip() == "Refresh tokens are single-use."
    assert (
        # the generator's marker (tree/generated.py), then the text
        (project.tree / "auth/context.md").read_text().split("\n---\n\n", 1)[1]
        .startswith("# Domain: auth\n\n## Purpose\n")
    )
    for level, heads in [
        ("auth", ["## Purpose", "## Scope", "## Ownership", "## Usage"]),
        ("auth/jwt_tokens", ["## Overview", "## Key Concepts", "## Related Topics"]),
        ("auth/jwt_tokens/refresh", ["## Focus", "## Parent Relation"]),
    ]:
        text = (project.tree / level / "context.md").read_text()
        assert [line for line in text.splitlines() if line.startswith("## ")] == heads
    assert signals(project) == {"auth/jwt_tokens/refresh/token_rotation.md": 50.0}


def test_context_md_is_deterministic_and_never_rewritten(project: Project, tmp_path) -> None:
    other = Project(tmp_path / "other")
    from brv_vc.services.init import init_project

    init_project(other.root)
    curate(project, add(summary="S"))
    curate(other, add(summary="S"))
    assert (project.tree / "auth/jwt/context.md").read_bytes() == (
        other.tree / "auth/jwt/context.md"
    ).read_bytes()
    edited = b"# Topic: jwt\n\n## Overview\nOwned by the platform team.\n"
    (project.tree / "auth/jwt/context.md").write_bytes(edited)
    curate(
        project,
        add(title="Second"),
        {"type": "UPSERT", "path": "auth/jwt", "title": "Second", "content": "x", "reason": "r"},
    )
    assert (project.tree / "auth/jwt/context.md").read_bytes() == edited


def test_add_of_existing_entry_fails_and_changes_nothing(project: Project) -> None:
    curate(project, add(content="first"))
    before = (project.tree / "auth/jwt/token_rotation.md").read_bytes()
    result = curate(project, add(content="second"), now=LATER)
    assert not result.ok
    assert result.applied[0].status == "failed"
    assert (
        result.applied[0].message
        == "'auth/jwt/token_rotation.md' already exists with the title 'Token Rotation'; "
        "use UPDATE or UPSERT, or give a different title"
    )
    assert (project.tree / "auth/jwt/token_rotation.md").read_bytes() == before


def test_content_with_sections_is_a_full_body(project: Project) -> None:
    body = "## Raw Concept\n**Task:** Rotate\n\n## Facts\n- a fact [team]\n"
    curate(project, add(content=body))
    entry = read(project, "auth/jwt/token_rotation.md")
    assert entry.body == "\n## Raw Concept\n**Task:** Rotate\n\n## Facts\n- a fact [team]\n"


def test_update_keeps_created_at_and_unmentioned_sections(project: Project) -> None:
    curate(
        project,
        add(
            content="Old narrative.",
            rawConcept={"task": "Rotate", "files": ["a.py"]},
            facts=[{"statement": "Old fact"}],
            tags=["auth"],
        ),
    )
    result = curate(
        project,
        {
            "type": "UPDATE",
            "path": "auth/jwt/token_rotation.md",
            "content": "New narrative.",
            "reason": "rewrite",
        },
        now=LATER,
    )
    assert result.ok
    assert result.summary.updated == 1
    entry = read(project, "auth/jwt/token_rotation.md")
    assert entry.created_at == "2026-03-01T12:00:00Z"
    assert entry.updated_at == "2026-03-05T09:30:00Z"
    assert section_text(entry.body, "Narrative").strip() == "New narrative."
    assert "**Task:**\nRotate" in section_text(entry.body, "Raw Concept")  # kept: not mentioned
    assert entry.facts() == [Fact("Old fact")]
    assert entry.tags == ("auth",)
    days = (LATER - NOW).total_seconds() / 86400
    # importance decays 0.995/day, then +5 for the update (seed 002)
    assert signals(project)["auth/jwt/token_rotation.md"] == pytest.approx(50 * 0.995**days + 5)


def test_update_by_folder_and_title_and_unchanged_update(project: Project) -> None:
    curate(project, add(content="Same."))
    before = (project.tree / "auth/jwt/token_rotation.md").read_bytes()
    result = curate(
        project,
        {
            "type": "UPDATE",
            "path": "auth/jwt",
            "title": "Token Rotation",
            "content": "Same.",
            "reason": "no-op",
        },
        now=LATER,
    )
    assert result.ok
    assert result.applied[0].action == "unchanged"
    assert result.summary.updated == 0
    assert (project.tree / "auth/jwt/token_rotation.md").read_bytes() == before


def test_update_of_missing_entry_fails(project: Project) -> None:
    result = curate(
        project, {"type": "UPDATE", "path": "auth/jwt/nope.md", "content": "x", "reason": "r"}
    )
    assert result.applied[0].status == "failed"
    assert result.applied[0].message == "no entry at 'auth/jwt/nope.md' to update"
    assert not (project.tree / "auth").exists()


def test_upsert_adds_then_updates(project: Project) -> None:
    op = {
        "type": "UPSERT",
        "path": "auth/jwt",
        "title": "Token Rotation",
        "content": "v1",
        "reason": "r",
    }
    first = curate(project, op)
    second = curate(project, {**op, "content": "v2"}, now=LATER)
    assert (first.summary.added, second.summary.updated) == (1, 1)
    assert [r.action for r in (*first.applied, *second.applied)] == ["added", "updated"]
    entry = read(project, "auth/jwt/token_rotation.md")
    assert section_text(entry.body, "Narrative").strip() == "v2"
    assert entry.created_at == "2026-03-01T12:00:00Z"


def test_merge_combines_section_by_section_and_deletes_the_source(project: Project) -> None:
    curate(
        project,
        add(
            title="Target",
            summary="",
            tags=["a", "b"],
            related=["x/y/z.md"],
            content="Shared paragraph.\n\n- item one\n- item two",
            rawConcept={"task": "Target task", "files": ["a.py"]},
            facts=[{"statement": "Fact one", "category": "project"}],
        ),
        now=LATER,
    )
    curate(
        project,
        add(
            title="Source",
            summary="Source summary",
            tags=["b", "c"],
            keywords=["k"],
            content="Shared paragraph.\n\nSource-only paragraph.\n\n- item two\n- item three",
            rawConcept={"task": "Source task", "files": ["a.py", "b.py"], "author": "bot"},
            facts=[{"statement": "FACT  one", "category": "project"}, {"statement": "Fact two"}],
        ),
        now=NOW,
    )
    result = curate(
        project,
        {
            "type": "MERGE",
            "path": "auth/jwt/source.md",
            "target": "auth/jwt/target.md",
            "reason": "duplicates",
        },
        now=datetime(2026, 4, 1, tzinfo=UTC),
    )
    assert result.ok
    assert result.summary.merged == 1
    assert not (project.tree / "auth/jwt/source.md").exists()
    entry = read(project, "auth/jwt/target.md")
    assert entry.title == "Target"
    assert entry.summary == "Source summary"  # the target had none
    assert entry.tags == ("a", "b", "c")
    assert entry.keywords == ("k",)
    assert entry.created_at == "2026-03-01T12:00:00Z"  # the earliest
    assert entry.updated_at == "2026-04-01T00:00:00Z"
    assert entry.facts() == [Fact("Fact one", None, "project"), Fact("Fact two")]
    assert section_text(entry.body, "Narrative").strip() == (
        "Shared paragraph.\n\n- item one\n- item two\n\nSource-only paragraph.\n\n- item three"
    )
    raw = section_text(entry.body, "Raw Concept")
    assert "Target task" in raw
    assert "Source task" not in raw
    assert "- a.py\n- b.py" in raw
    assert "**Author:** bot" in raw
    assert set(signals(project)) == {"auth/jwt/target.md"}


def test_merge_of_missing_source_or_target_fails(project: Project) -> None:
    curate(project, add(title="Target"))
    result = curate(
        project,
        {
            "type": "MERGE",
            "path": "auth/jwt/nope.md",
            "target": "auth/jwt/target.md",
            "reason": "r",
        },
        {
            "type": "MERGE",
            "path": "auth/jwt/target.md",
            "target": "auth/jwt/nope.md",
            "reason": "r",
        },
        {
            "type": "MERGE",
            "path": "auth/jwt/target.md",
            "target": "auth/jwt/target.md",
            "reason": "r",
        },
    )
    assert [r.message for r in result.applied] == [
        "MERGE source entry 'auth/jwt/nope.md' not found",
        "MERGE target entry 'auth/jwt/nope.md' not found",
        "MERGE source and target are the same entry 'auth/jwt/target.md'",
    ]
    assert result.summary.failed == 3
    assert (project.tree / "auth/jwt/target.md").exists()


def test_delete_entry_and_subtree(project: Project) -> None:
    curate(
        project,
        add(title="One"),
        add(title="Two"),
        add(path="auth/jwt/refresh", title="Three"),
        add(path="billing/plans", title="Four"),
    )
    result = curate(
        project,
        {"type": "DELETE", "path": "auth/jwt/one.md", "reason": "obsolete"},
        {"type": "DELETE", "path": "auth/jwt/refresh", "reason": "folder gone"},
        {"type": "DELETE", "path": "billing", "reason": "domain gone"},
    )
    assert result.ok
    assert result.summary.deleted == 3
    assert not (project.tree / "auth/jwt/one.md").exists()
    assert (project.tree / "auth/jwt/two.md").exists()
    assert not (project.tree / "auth/jwt/refresh").exists()
    assert not (project.tree / "billing").exists()
    assert set(signals(project)) == {"auth/jwt/two.md"}


def test_delete_of_missing_path_fails(project: Project) -> None:
    result = curate(project, {"type": "DELETE", "path": "auth/nothing", "reason": "r"})
    assert result.applied[0].message == "no folder at 'auth/nothing' to delete"


def test_existing_kebab_case_folders_of_a_byterover_tree_are_used_as_they_are(
    project: Project,
) -> None:
    (project.tree / "authentication/jwt-implementation").mkdir(parents=True)
    result = curate(project, add(path="authentication/jwt-implementation", title="Refresh"))
    assert result.applied[0].file == "authentication/jwt-implementation/refresh.md"
    assert not (project.tree / "authentication/context.md").exists()  # not a first curate


def test_written_entries_are_canonical(project: Project) -> None:
    curate(project, add(content="Body text", tags=["x"]))
    data = (project.tree / "auth/jwt/token_rotation.md").read_bytes()
    assert serialize_entry(parse_entry(data)) == data


def test_curate_log_keeps_every_reason(project: Project) -> None:
    from brv_vc.lifecycle import curate_log

    curate(
        project,
        add(reason="from PR 12"),
        {"type": "DELETE", "path": "auth/x.md", "reason": "cleanup"},
    )
    conn = statedb.open_state(project)
    try:
        rows = curate_log.recent(conn)
    finally:
        conn.close()
    assert [(r.type, r.status, r.reason) for r in rows] == [
        ("DELETE", "failed", "cleanup"),
        ("ADD", "success", "from PR 12"),
    ]
    assert rows[1].time == "2026-03-01T12:00:00Z"


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (add(path="../outside"), "folder '../outside' leaves the context tree ('..')"),
        (
            add(path="/etc/passwd"),
            "folder '/etc/passwd' is absolute; paths are relative to the context tree",
        ),
        (
            add(path="a/b/c/d"),
            "'a/b/c/d' has 4 level(s); knowledge lives in domain/topic or domain/topic/subtopic",
        ),
        (
            add(path="auth"),
            "'auth' has 1 level(s); knowledge lives in domain/topic or domain/topic/subtopic",
        ),
        (add(path="auth/!!!"), "name '!!!' in 'auth/!!!' has no letters or digits"),
        (add(path="auth/_index"), "name '_index' in 'auth/_index' is reserved by brv"),
        (
            add(path="auth/jwt/x.md"),
            "ADD takes a folder path and a title, not the file 'auth/jwt/x.md'",
        ),
        (
            {"type": "DELETE", "path": "_archived/a", "reason": "r"},
            "'_archived/a' is derived by brv, not knowledge; it cannot be curated",
        ),
        (
            {"type": "UPDATE", "path": "auth/jwt", "content": "x", "reason": "r"},
            "UPDATE of folder 'auth/jwt' needs a title",
        ),
    ],
)
def test_invalid_paths_and_names_fail_the_operation(
    project: Project, op: dict[str, Any], message: str
) -> None:
    result = curate(project, op)
    assert result.applied[0].status == "failed"
    assert result.applied[0].message == message
    assert not any(project.tree.iterdir())


def test_upsert_of_a_new_entry_by_file_path_follows_the_naming_rules(project: Project) -> None:
    ok = curate(
        project,
        {"type": "UPSERT", "path": "auth/jwt/key_rotation.md", "content": "x", "reason": "r"},
    )
    assert ok.applied[0].action == "added"
    assert read(project, "auth/jwt/key_rotation.md").title == "key rotation"
    bad = curate(
        project,
        {"type": "UPSERT", "path": "Auth Stuff/jwt/Key Rotation.md", "content": "x", "reason": "r"},
    )
    assert bad.applied[0].message == (
        "'Auth Stuff/jwt/Key Rotation.md' does not follow the naming rules; "
        "a new entry there would be 'auth_stuff/jwt/key_rotation.md'"
    )
    assert not (project.tree / "Auth Stuff").exists()


def test_merge_of_facts_keeps_prose_lines_once() -> None:
    from brv_vc.services.curate.merge import merge_facts

    merged = merge_facts("- a [team]\nNote: see ADR 7", "Note: see ADR 7\n- **x**: b\n- A [team]")
    assert merged == "- a [team]\n- **x**: b\n\nNote: see ADR 7"
