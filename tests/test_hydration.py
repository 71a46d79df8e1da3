"""Hydration, dehydration and token hygiene (seed 003): brv hydrate / dehydrate / stats."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.errors import UsageError
from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain.items import MAX_READ
from brv_vc.services.curate import run_batch
from brv_vc.services.hydrate import dehydrate, hydrate, tree_stats
from brv_vc.tree.generated import is_generated
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def add(path: str, title: str, content: str = "", summary: str = "", tags=("notes",)) -> dict:
    op = {"type": "ADD", "path": path, "title": title, "tags": list(tags), "reason": "t",
          "content": content or f"{title} in detail."}
    if summary:
        op["summary"] = summary
    return op


def seed(project: Project) -> None:
    result = run_batch(project, [
        add("auth/jwt", "Token rotation", summary="Refresh tokens are single-use."),
        add("auth/jwt/refresh", "Reuse detection", summary="A reused token revokes the family."),
        add("auth/oauth", "Auth0 provider", summary="Login goes through Auth0."),
        add("billing/stripe", "Webhooks", summary="Stripe webhooks are verified."),
    ], NOW)
    assert result.summary.failed == 0


def test_hydration_has_global_parent_and_local_context(project: Project) -> None:
    seed(project)
    result = hydrate(project, "auth/jwt", NOW)
    doc = result.document
    assert doc.startswith("# Context for auth/jwt\n")
    assert "## Global" in doc
    assert "## Project Brief" in doc
    assert "## Parent intent" in doc
    assert "### auth" in doc
    assert "Covers the project's knowledge about auth." in doc
    assert "**Token rotation** (`auth/jwt/token_rotation.md`)" in doc
    assert "Reuse detection" in doc  # the subtopic's entries belong to the node
    assert "Webhooks" not in doc  # another domain is not local context
    assert result.tokens == count_tokens(doc) <= result.budget


def test_a_digest_stands_in_for_the_raw_children_in_the_parents_hydration(
        project: Project) -> None:
    seed(project)
    done = dehydrate(project, "auth/jwt/refresh", "Single-use refresh tokens; reuse revokes.",
                     NOW)
    assert done.changed
    assert done.file == "auth/jwt/refresh/context.md"
    text = (project.tree / "auth/jwt/refresh/context.md").read_text()
    assert "\n---\n\n# Subtopic: refresh\n" in text  # the generated part is kept...
    assert not is_generated(text.encode())  # ...and the digest makes it knowledge
    assert text.endswith("## Digest\nSingle-use refresh tokens; reuse revokes.\n")
    parent = hydrate(project, "auth/jwt", NOW).document
    assert "### auth/jwt/refresh/ (digest)\nSingle-use refresh tokens; reuse revokes." in parent
    assert "Reuse detection" not in parent
    again = dehydrate(project, "auth/jwt/refresh", "Single-use refresh tokens; reuse revokes.",
                      NOW)
    assert not again.changed  # the same digest twice writes nothing
    replaced = dehydrate(project, "auth/jwt/refresh", "New digest.", NOW)
    assert replaced.changed
    text = (project.tree / "auth/jwt/refresh/context.md").read_text()
    assert text.count("## Digest") == 1
    assert text.endswith("## Digest\nNew digest.\n")


def test_the_digest_reaches_a_teammate_through_the_tree(project: Project, brv) -> None:
    seed(project)
    result = brv("dehydrate", "auth/jwt", "--digest", "-", "--json", cwd=project.root,
                 input="Tokens: JWT, 1 h expiry.\n")
    assert result.exit_code == 0, result.stderr
    assert result.json()["file"] == "auth/jwt/context.md"
    shown = brv("hydrate", "auth", "--json", cwd=project.root).json()
    assert "Tokens: JWT, 1 h expiry." in shown["document"]


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(min_value=1, max_value=4000), min_size=1, max_size=10),
       budget=st.integers(min_value=100, max_value=3000))
def test_hydration_never_exceeds_its_budget(project: Project, sizes: list[int],
                                            budget: int) -> None:
    ops = [add(f"d/t{i % 2}", f"Note {len(sizes)} {budget} {i}", content="word " * (n // 5 + 1),
               summary="s " * (n // 40)) for i, n in enumerate(sizes)]
    run_batch(project, ops, NOW)
    for node in ("", "d", "d/t0"):
        result = hydrate(project, node, NOW, budget=budget)
        assert count_tokens(result.document) <= budget


def test_stats_count_tokens_per_node_and_nodes_over_the_limit(project: Project, brv) -> None:
    seed(project)
    run_batch(project, [add("billing/stripe", "Long notes", content="x " * 2000)], NOW)
    stats = tree_stats(project, limit=500)
    assert stats.nodes_over_limit == 1
    assert stats.over[0].path == "billing/stripe"
    assert stats.largest[0].path == "billing/stripe"
    assert stats.total_tokens == sum(n.tokens for n in stats.largest) or stats.total_nodes > 10
    result = brv("stats", "--limit", "500", "--json", cwd=project.root)
    assert result.exit_code == 0
    assert result.json()["nodes_over_limit"] == 1


def test_bad_input_is_refused_and_changes_nothing(project: Project, brv) -> None:
    seed(project)
    before = snapshot(project.tree)
    cases = [
        (("hydrate", "nowhere/at_all"), 1, "no folder 'nowhere/at_all'"),
        (("hydrate", "../etc"), 1, ".."),
        (("hydrate", "auth/jwt/token_rotation.md"), 1, "is a file"),
        (("hydrate", "auth", "--budget", "5"), 2, "too small"),
        (("dehydrate", "auth/jwt", "--digest", "   "), 1, "the digest is empty"),
        (("dehydrate", "auth/jwt", "--digest", "x\n## Heading\n"), 1, "'## ' heading"),
        (("dehydrate", "auth/jwt", "--digest", "x" * 9000), 1, "the limit is 8000"),
        (("dehydrate", "", "--digest", "x"), 1, "the root has no parent"),
    ]
    for args, code, words in cases:
        result = brv(*args, cwd=project.root)
        assert result.exit_code == code, (args, result.stderr)
        assert words in result.stderr, (args, result.stderr)
    assert snapshot(project.tree) == before


def test_hydrate_itself_refuses_a_budget_too_small_as_the_cli_does(project: Project,
                                                                   brv) -> None:
    seed(project)
    with pytest.raises(UsageError) as refused:
        hydrate(project, "auth", NOW, budget=99)
    assert refused.value.message == "--budget 99 is too small"
    assert refused.value.hint == "give at least 100 tokens"
    cli = brv("hydrate", "auth", "--budget", "99", cwd=project.root)
    assert cli.exit_code == 2
    assert cli.stderr == "brv: error: --budget 99 is too small\nhint: give at least 100 tokens\n"
    assert hydrate(project, "auth", NOW, budget=100).tokens <= 100


def test_local_entries_are_the_nodes_best_not_the_trees_best(project: Project) -> None:
    """The brief reads the tree's best entries, the local part the node's own best."""
    run_batch(project, [add(f"busy/t{i % 4}", f"Busy {i}", tags=("decision",))
                        for i in range(MAX_READ + 10)], NOW)
    quiet = NOW - timedelta(days=200)  # older than every busy entry: never in the tree's best
    run_batch(project, [add("quiet/corner", "Quiet note", summary="Found locally.")], quiet)
    result = hydrate(project, "quiet", NOW)
    assert [item.path for item in result.local] == ["quiet/corner/quiet_note.md"]
    assert "Found locally." in result.document


def test_frontmatter_is_split_by_the_format_reader(project: Project) -> None:
    """An empty frontmatter then a horizontal rule: only the fences go, never the text."""
    seed(project)
    (project.tree / "auth/context.md").write_text(
        "---\n---\n# Domain: auth\n\n## Purpose\nAuth purpose.\n\n---\n\n## Usage\nUse it.\n")
    (project.tree / "_index.md").write_text(
        "---\n---\n# Root: context tree\n\nFirst part.\n\n---\n\nSecond part.\n")
    result = hydrate(project, "auth/jwt", NOW)
    assert [p.purpose for p in result.parents] == ["Auth purpose.\n\n---"]  # the section
    assert result.overview == "# Root: context tree\n\nFirst part.\n\n---\n\nSecond part."
