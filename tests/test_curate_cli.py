"""``brv curate`` on the command line, and every class of bad input: message, exit code 1,
nothing changed on disk."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import snapshot

from brv_vc.tree.project import Project

ENV_NOW = "2026-03-01T12:00:00Z"


@pytest.fixture
def seeded(project: Project, brv) -> Project:
    result = brv(
        "curate",
        "add",
        "auth/jwt",
        "--title",
        "Token Rotation",
        "--content",
        "Single-use.",
        "--tags",
        "auth, jwt",
        "--reason",
        "seed",
        cwd=project.root,
    )
    assert result.exit_code == 0, result.stderr
    return project


def write_ops(tmp_path: Path, ops: object) -> str:
    path = tmp_path / "ops.json"
    path.write_text(json.dumps(ops))
    return str(path)


def test_add_shortcut_text_output(project: Project, brv) -> None:
    result = brv(
        "curate",
        "add",
        "auth/jwt",
        "--title",
        "Token Rotation",
        "--content",
        "Single-use.",
        "--summary",
        "Rotation",
        "--keywords",
        "refresh,rotation",
        "--related",
        "@Auth/Session.md",
        cwd=project.root,
    )
    assert result.exit_code == 0
    assert result.stdout == (
        "added     auth/jwt/token_rotation.md\n1 added, 0 updated, 0 merged, 0 deleted, 0 failed\n"
    )
    text = (project.tree / "auth/jwt/token_rotation.md").read_text()
    assert 'keywords: ["refresh", "rotation"]\nrelated: ["auth/session.md"]\n' in text


def test_ops_file_json_output_matches_seed_002(seeded: Project, brv, tmp_path: Path) -> None:
    ops = write_ops(
        tmp_path,
        [
            {
                "type": "UPSERT",
                "path": "auth/jwt",
                "title": "Token Rotation",
                "content": "Weekly.",
                "reason": "policy",
            },
            {
                "type": "MERGE",
                "path": "auth/jwt/gone.md",
                "target": "auth/jwt/token_rotation.md",
                "reason": "dup",
            },
        ],
    )
    result = brv("curate", "--ops", ops, "--json", cwd=seeded.root)
    assert result.exit_code == 1
    payload = result.json()
    assert payload["ok"] is False
    assert payload["summary"] == {"added": 0, "updated": 1, "merged": 0, "deleted": 0, "failed": 1}
    assert {
        k: payload["applied"][1][k] for k in ("type", "path", "status", "message", "reason")
    } == {
        "type": "MERGE",
        "path": "auth/jwt/gone.md",
        "status": "failed",
        "message": "MERGE source entry 'auth/jwt/gone.md' not found",
        "reason": "dup",
    }


def test_ops_from_stdin_with_operations_wrapper(project: Project, brv) -> None:
    ops = {
        "operations": [{"type": "ADD", "path": "a/b", "title": "T", "content": "x", "reason": "r"}]
    }
    result = brv("curate", "--ops", "-", "--json", cwd=project.root, input=json.dumps(ops))
    assert result.exit_code == 0, result.stderr
    assert result.json()["summary"]["added"] == 1


def test_update_upsert_merge_delete_shortcuts(seeded: Project, brv, tmp_path: Path) -> None:
    root = seeded.root
    content = tmp_path / "notes.md"
    content.write_text("## Facts\n- Refresh tokens are single-use [convention]\n")
    assert (
        brv(
            "curate", "update", "auth/jwt/token_rotation.md", "--file", str(content), cwd=root
        ).exit_code
        == 0
    )
    assert "[convention]" in (seeded.tree / "auth/jwt/token_rotation.md").read_text()
    assert (
        brv(
            "curate", "upsert", "auth/jwt", "--title", "Notes", "--content", "n", cwd=root
        ).exit_code
        == 0
    )
    merged = brv(
        "curate",
        "merge",
        "auth/jwt/notes.md",
        "--into",
        "auth/jwt/token_rotation.md",
        "--reason",
        "dup",
        "--json",
        cwd=root,
    )
    assert merged.json()["summary"]["merged"] == 1
    deleted = brv("curate", "--json", "delete", "auth", "--reason", "gone", cwd=root)
    assert deleted.exit_code == 0
    assert deleted.json()["applied"][0]["message"] == "deleted folder auth (1 entries)"
    assert not (seeded.tree / "auth").exists()


def test_delete_and_merge_require_a_reason(seeded: Project, brv) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "delete", "auth/jwt/token_rotation.md", cwd=seeded.root)
    assert result.exit_code == 2
    assert "Missing option '--reason'" in result.stderr
    assert snapshot(seeded.root) == before


def test_curate_without_operations_is_a_usage_error(project: Project, brv) -> None:
    result = brv("curate", cwd=project.root)
    assert result.exit_code == 2
    assert "give operations with --ops FILE" in result.stderr


# ---- bad input: message, exit code 1, nothing changed on disk -------------------------------


def refused(brv, root: Path, *args: str, input: str | None = None) -> tuple[str, object]:
    before = snapshot(root)
    result = brv(*args, cwd=root, input=input)
    assert result.exit_code == 1, (result.stdout, result.stderr)
    assert snapshot(root) == before
    return result.stderr, result


def test_malformed_ops_json(seeded: Project, brv, tmp_path: Path) -> None:
    path = tmp_path / "ops.json"
    path.write_text('[{"type": "ADD",]')
    err, _ = refused(brv, seeded.root, "curate", "--ops", str(path))
    assert (
        "brv: error: the operations are not valid JSON: Expecting property name enclosed in "
        f"double quotes (line 1, column 17)\n  file: {path}\n" in err
    )


def test_malformed_ops_json_as_json_error(seeded: Project, brv) -> None:
    _, result = refused(brv, seeded.root, "curate", "--ops", "-", "--json", input="nope")
    error = result.json()["error"]
    assert error["code"] == "format"
    assert error["file"] == "<stdin>"
    assert error["message"].startswith("the operations are not valid JSON")


def test_ops_that_are_not_an_array(seeded: Project, brv) -> None:
    err, _ = refused(brv, seeded.root, "curate", "--ops", "-", input='{"type": "ADD"}')
    assert "the operations must be a JSON array, got dict" in err


def test_non_utf8_ops_file(seeded: Project, brv, tmp_path: Path) -> None:
    path = tmp_path / "ops.json"
    path.write_bytes(b'[{"type": "ADD", "title": "caf\xe9"}]')
    err, _ = refused(brv, seeded.root, "curate", "--ops", str(path))
    assert "the file is not UTF-8 text (bad byte at offset 30)" in err


def test_missing_ops_file(seeded: Project, brv) -> None:
    err, _ = refused(brv, seeded.root, "curate", "--ops", "nowhere.json")
    assert "operations file 'nowhere.json' does not exist" in err


@pytest.mark.parametrize(
    ("op", "message"),
    [
        (
            {"type": "RENAME", "path": "a/b", "reason": "r"},
            "invalid operation at operations[0].type: 'RENAME' is not one of "
            "'ADD', 'UPDATE', 'UPSERT', 'MERGE', 'DELETE'",
        ),
        (
            {"type": "ADD", "path": "a/b", "title": "T"},
            "invalid operation at operations[0]: 'reason' is required but missing",
        ),
        (
            {"type": "ADD", "path": "a/b", "title": "T", "reason": "r", "tags": "auth", "content": "c"},
            "invalid operation at operations[0].tags: expected array, got string 'auth'",
        ),
        (
            {"type": "ADD", "path": "a/b", "title": "T", "reason": "r", "titel": "x", "content": "c"},
            "invalid operation at operations[0]: unknown key: 'titel' was unexpected",
        ),
        (
            {"type": "MERGE", "path": "a/b/c.md", "reason": "r"},
            "invalid operation at operations[0]: 'target' is required but missing",
        ),
        (
            {"type": "ADD", "path": "a/b", "title": "T", "reason": "r", "content": "x" * 40_001},
            "invalid operation at operations[0].content: "
            "is 40,001 characters long; the limit is 40,000",
        ),
        (
            {
                "type": "ADD",
                "path": "a/b",
                "title": "T",
                "reason": "r",
                "facts": [{"statement": "s", "category": "gossip"}],
            },
            "invalid operation at operations[0].facts[0].category: "
            "'gossip' is not one of 'personal'",
        ),
    ],
)
def test_schema_invalid_operations(
    seeded: Project, brv, tmp_path: Path, op: dict, message: str
) -> None:
    ops = write_ops(tmp_path, [op])
    err, _ = refused(brv, seeded.root, "curate", "--ops", ops)
    assert f"brv: error: {message}" in err
    assert "nothing was applied" in err
    assert "key: operations[0]" in err


def test_structured_content_over_the_limit_fails_the_operation(
    seeded: Project, brv, tmp_path: Path
) -> None:
    facts = [{"statement": f"fact {i} " + "y" * 3000} for i in range(14)]
    ops = write_ops(
        tmp_path, [{"type": "ADD", "path": "a/b", "title": "T", "reason": "r", "facts": facts}]
    )
    err, _ = refused(brv, seeded.root, "curate", "--ops", ops)
    assert "brv: error: ADD a/b: the entry 'a/b/t.md' would be 42," in err
    assert "characters with its section headings; the limit is 40,000" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("add", "../escape", "--title", "T", "--content", "x"),
            "ADD ../escape: folder '../escape' leaves the context tree ('..')",
        ),
        (
            ("add", "/abs/path", "--title", "T", "--content", "x"),
            "folder '/abs/path' is absolute; paths are relative to the context tree",
        ),
        (
            ("update", "../../etc/passwd.md", "--content", "x"),
            "entry path '../../etc/passwd.md' leaves the context tree ('..')",
        ),
        (
            ("add", "auth/jwt/deep/deeper", "--title", "T", "--content", "x"),
            "has 4 level(s); knowledge lives in domain/topic or domain/topic/subtopic",
        ),
        (
            ("add", "auth/jwt", "--title", "Token Rotation", "--content", "x"),
            "'auth/jwt/token_rotation.md' already exists with the title 'Token Rotation'; use "
            "UPDATE or UPSERT, or give a different title",
        ),
        (
            ("update", "auth/jwt/missing.md", "--content", "x"),
            "no entry at 'auth/jwt/missing.md' to update",
        ),
        (
            (
                "merge",
                "auth/jwt/missing.md",
                "--into",
                "auth/jwt/token_rotation.md",
                "--reason",
                "r",
            ),
            "MERGE source entry 'auth/jwt/missing.md' not found",
        ),
        (
            (
                "merge",
                "auth/jwt/token_rotation.md",
                "--into",
                "auth/jwt/missing.md",
                "--reason",
                "r",
            ),
            "MERGE target entry 'auth/jwt/missing.md' not found",
        ),
        (
            ("delete", "auth/jwt/context.md", "--reason", "r"),
            "'auth/jwt/context.md' is not a knowledge entry",
        ),
    ],
)
def test_bad_paths_and_missing_entries(
    seeded: Project, brv, args: tuple[str, ...], message: str
) -> None:
    err, _ = refused(brv, seeded.root, "curate", *args)
    assert message in err
    assert err.startswith("brv: error: ")


def test_symlink_escaping_the_tree_is_refused(seeded: Project, brv, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    (outside / "topic").mkdir(parents=True)
    (outside / "topic/x.md").write_text('---\ntitle: "X"\n---\n')
    os.symlink(outside, seeded.tree / "evil")
    for args in (
        ("add", "evil/topic", "--title", "T", "--content", "x"),
        ("update", "evil/topic/x.md", "--content", "y"),
        ("delete", "evil", "--reason", "r"),
    ):
        err, _ = refused(brv, seeded.root, "curate", *args)
        assert "resolves outside the context tree (through a symlink)" in err
    assert sorted(p.name for p in outside.rglob("*")) == ["topic", "x.md"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'---\ntitle: "T"\ntags: [unclosed\n---\n', "malformed YAML in the frontmatter"),
        (b"---\nsummary: no title\n---\n", "required field 'title' is missing or empty"),
        (b'---\ntitle: "T"\ntags: auth\n---\n', "field 'tags' must be a list of strings, got str"),
        (b'---\ntitle: "caf\xe9"\n---\n', "the file is not UTF-8 text"),
        (b"\x00\x01binary", "this is a binary file, not a markdown knowledge file"),
    ],
)
def test_updating_a_broken_entry_file_is_refused(
    seeded: Project, brv, data: bytes, message: str
) -> None:
    (seeded.tree / "auth/jwt/broken.md").write_bytes(data)
    err, _ = refused(brv, seeded.root, "curate", "update", "auth/jwt/broken.md", "--content", "x")
    assert f"brv: error: UPDATE auth/jwt/broken.md: {message}" in err


def test_non_utf8_content_file(seeded: Project, brv, tmp_path: Path) -> None:
    path = tmp_path / "c.md"
    path.write_bytes(b"\xff\xfe bad")
    err, _ = refused(brv, seeded.root, "curate", "add", "a/b", "--title", "T", "--file", str(path))
    assert "the file is not UTF-8 text (bad byte at offset 0)" in err


def test_invalid_batch_applies_nothing_even_the_valid_operations(
    seeded: Project, brv, tmp_path: Path
) -> None:
    ops = write_ops(
        tmp_path,
        [
            {"type": "ADD", "path": "a/b", "title": "Fine", "content": "x", "reason": "r"},
            {"type": "DELETE", "path": "auth", "reason": ""},
        ],
    )
    err, _ = refused(brv, seeded.root, "curate", "--ops", ops)
    assert "operations[1].reason: must not be empty" in err


def test_failed_operation_exit_code_with_json(seeded: Project, brv) -> None:
    _, result = refused(
        brv, seeded.root, "curate", "update", "auth/jwt/missing.md", "--content", "x", "--json"
    )
    assert (
        result.json()["applied"][0]["hint"]
        == "use ADD or UPSERT to create it; 'brv tree' lists the entries"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("curate",),
        ("curate", "add"),
        ("curate", "update"),
        ("curate", "upsert"),
        ("curate", "delete"),
        ("curate", "merge"),
        ("tree",),
        ("demo",),
    ],
)
def test_every_command_has_help_with_an_example(tmp_path: Path, brv, args: tuple[str, ...]) -> None:
    result = brv(*args, "--help", cwd=tmp_path)
    assert result.exit_code == 0
    assert "Example:" in result.stdout


def test_curate_outside_a_project(tmp_path: Path, brv) -> None:
    result = brv("curate", "add", "a/b", "--title", "T", "--content", "x", cwd=tmp_path)
    assert result.exit_code == 1
    assert "not a brv project" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_dry_run_reports_and_writes_nothing(seeded: Project, brv, tmp_path: Path) -> None:
    ops = write_ops(
        tmp_path,
        [
            {"type": "ADD", "path": "a/b", "title": "New", "content": "x", "reason": "r"},
            {"type": "DELETE", "path": "auth", "reason": "r"},
            {"type": "UPDATE", "path": "x/y/none.md", "content": "x", "reason": "r"},
        ],
    )
    before = snapshot(seeded.root)
    result = brv("curate", "--ops", ops, "--dry-run", cwd=seeded.root)
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "would add a/b/new.md",
        "would delete folder auth (1 entries)",
        "1 added, 0 updated, 0 merged, 1 deleted, 1 failed (dry run: nothing was written)",
    ]
    assert "no entry at 'x/y/none.md' to update" in result.stderr
    assert snapshot(seeded.root) == before
    data = brv("curate", "--ops", ops, "--dry-run", "--json", cwd=seeded.root).json()
    assert data["dry_run"] is True
    assert data["applied"][0]["message"] == "would add a/b/new.md"
    assert data["applied"][1]["message"] == "would delete folder auth (1 entries)"


def test_a_binary_operations_file_is_named_as_such(seeded: Project, brv, tmp_path: Path) -> None:
    ops = tmp_path / "ops.json"
    ops.write_bytes(b"\x00\x01\x02")
    err, _ = refused(brv, seeded.root, "curate", "--ops", str(ops))
    assert "brv: error: the operations file is binary, not JSON text" in err


def test_unicode_names_are_kept_and_accents_fold(seeded: Project, brv) -> None:
    result = brv("curate", "add", "日本/設定", "--title", "パスワード", "--content", "x",
                 "--reason", "r", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert (seeded.tree / "日本/設定/パスワード.md").is_file()
    result = brv("curate", "add", "auth/jwt", "--title", "Ünïcödé café", "--content", "x",
                 "--reason", "r", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert (seeded.tree / "auth/jwt/unicode_cafe.md").is_file()


@pytest.mark.parametrize("target", ["../../etc/passwd", "/abs/x.md", "a/../../b.md"])
def test_related_targets_may_not_leave_the_tree(seeded: Project, brv, target: str) -> None:
    err, _ = refused(brv, seeded.root, "curate", "add", "db/pg", "--title", "Pool", "--content",
                     "x", "--related", target, "--reason", "r")
    assert "brv: error: ADD db/pg: related target" in err


def test_a_damaged_state_database_stops_curate_before_it_writes(project: Project, brv) -> None:
    state_db = project.state / "brv.db"
    state_db.parent.mkdir(parents=True, exist_ok=True)
    state_db.unlink(missing_ok=True)
    state_db.mkdir()  # not a database: the sidecar and the curate log cannot be written
    before = snapshot(project.root)
    result = brv("curate", "add", "auth/jwt", "--title", "Token rotation", "--content", "x",
                 cwd=project.root)
    assert result.exit_code == 1
    assert "the state database is unreadable" in result.stderr
    assert "mv .brv/state/brv.db" in result.stderr
    assert snapshot(project.root) == before


def test_a_batch_with_failed_operations_has_the_error_object_in_json(
    project: Project, brv
) -> None:
    ops = [
        {"type": "ADD", "path": "kb/z", "title": "Ok", "content": "c", "reason": "r"},
        {"type": "UPDATE", "path": "kb/z/missing.md", "content": "c", "reason": "r"},
    ]
    result = brv("curate", "--ops", "-", "--json", cwd=project.root, input=json.dumps(ops))
    assert result.exit_code == 1
    data = result.json()
    assert data["ok"] is False
    assert data["error"]["code"] == "operations_failed"
    assert data["error"]["message"].startswith("1 of 2 operation(s) failed (first: UPDATE")
    assert data["error"]["file"] == "kb/z/missing.md"
    assert data["error"]["hint"].startswith("use ADD or UPSERT")
    assert [op["code"] for op in data["applied"]] == ["", "not_found"]
    assert data["summary"]["added"] == 1  # the other operation still applied
