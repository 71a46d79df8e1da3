"""``brv vc diff A..B`` and the PR Action name the knowledge about the code the range touches."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_surfaces_support import CODE, ENTRY, linked_entry
from conftest import run_brv
from test_pr_action import run_step
from vc_helpers import git

SECTION = "### Knowledge about the code this change touches"


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """In-project mode: main holds code and an entry linked to it; a feature branch."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    (root / "src/auth").mkdir(parents=True)
    (root / CODE).write_text("export const ttl = 24;\n")
    (root / "src/auth/other.ts").write_text("export const x = 1;\n")
    tree = root / ".brv/context-tree/auth/jwt"
    tree.mkdir(parents=True)
    (tree / "tokens.md").write_bytes(linked_entry())
    (tree / "sessions.md").write_bytes(linked_entry("Sessions", files=("src/auth/other.ts",)))
    git(root, "add", "-A")
    git(root, "commit", "-qm", "main")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def test_code_changed_without_its_entry_is_made_stale_and_with_it_to_reread(repo: Path) -> None:
    (repo / CODE).write_text("export const ttl = 1;\n")
    (repo / "src/auth/other.ts").write_text("export const x = 2;\n")
    (repo / ".brv/context-tree/auth/jwt/sessions.md").write_bytes(
        linked_entry("Sessions", files=("src/auth/other.ts",), note="x is 2 now."))
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "feature")
    done = run_brv("vc", "diff", "main..feature", "--format", "markdown", cwd=repo)
    assert done.exit_code == 0, done.stderr
    body = done.stdout
    assert SECTION in body
    stale, updated = body.split("**Updated with the code**")
    assert "**Made stale by this change**" in stale
    assert f"| `{ENTRY}` | `{CODE}` | changed |" in stale
    assert "| `auth/jwt/sessions.md` | `src/auth/other.ts` | changed |" in updated
    data = run_brv("vc", "diff", "main..feature", "--json", cwd=repo).json()
    assert data["code"]["stale"] == [
        {"path": CODE, "change": "M", "entries": [ENTRY], "renamed_to": None}]
    assert [link["path"] for link in data["code"]["updated"]] == ["src/auth/other.ts"]


def test_a_deleted_file_is_named_and_an_unlinked_change_has_no_section(repo: Path) -> None:
    git(repo, "rm", "-q", CODE)
    git(repo, "commit", "-qm", "drop")
    body = run_brv("vc", "diff", "main..feature", "--format", "markdown", cwd=repo).stdout
    assert f"| `{ENTRY}` | `{CODE}` | deleted |" in body
    (repo / "README").write_text("unlinked\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "docs")
    body = run_brv("vc", "diff", "feature~1..feature", "--format", "markdown", cwd=repo).stdout
    assert SECTION not in body
    assert body.startswith("## Knowledge changes")


def test_the_action_posts_the_section_for_a_code_only_change(repo: Path, tmp_path: Path) -> None:
    (repo / CODE).write_text("export const ttl = 1;\n")
    git(repo, "commit", "-qam", "feature: code only")
    proc, out = run_step("diff", repo, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out["changed"] == "true"
    assert SECTION in out["body"]
    assert f"| `{ENTRY}` | `{CODE}` | changed |" in out["body"]


def test_a_standalone_trees_range_holds_no_code_and_has_no_section(tmp_path: Path) -> None:
    from code_surfaces_support import hooked_standalone

    project = hooked_standalone(tmp_path)
    (project.tree / "auth/jwt/more.md").write_bytes(linked_entry("More"))
    git(project.tree, "add", "-A")
    git(project.tree, "commit", "-qm", "more")
    done = run_brv("vc", "diff", "HEAD~1..HEAD", "--format", "markdown", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert "auth/jwt/more.md" in done.stdout
    assert SECTION not in done.stdout


def test_a_renamed_file_names_its_new_path(repo: Path) -> None:
    (repo / "src/tokens").mkdir()
    git(repo, "mv", CODE, "src/tokens/jwt.ts")
    git(repo, "commit", "-qm", "move")
    body = run_brv("vc", "diff", "main..feature", "--format", "markdown", cwd=repo).stdout
    assert f"| `{ENTRY}` | `{CODE}` | renamed to `src/tokens/jwt.ts` |" in body


def test_mcp_vc_diff_answers_as_the_cli_with_the_code_section(repo: Path) -> None:
    """brv-vc-diff gives `brv vc diff --json`'s answer, code included, and the same markdown."""
    from test_mcp_server import payload, with_server

    (repo / CODE).write_text("export const ttl = 1;\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "feature")
    cli = run_brv("vc", "diff", "main..feature", "--json", cwd=repo).json()
    markdown = run_brv("vc", "diff", "main..feature", "--format", "markdown", cwd=repo).stdout

    async def work(s):  # type: ignore[no-untyped-def]
        return payload(await s.call_tool("brv-vc-diff", {"ref": "main..feature",
                                                         "markdown": True}))

    answer = with_server(repo, work)
    assert answer.pop("markdown") == markdown
    assert answer["code"]["stale"] == [
        {"path": CODE, "change": "M", "entries": [ENTRY], "renamed_to": None}]
    assert {k: v for k, v in answer.items() if k not in ("ok", "version")} == {
        k: v for k, v in cli.items() if k not in ("ok", "version")}
