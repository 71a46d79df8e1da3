"""The Python API (``from brv_vc import ContextTree``): the same values as the services."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from brv_vc import ContextTree
from brv_vc.errors import FormatError, NotInitializedError
from brv_vc.services.query import search_tree
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_an_agent_planning_loop_through_the_api(project: Project) -> None:
    tree = ContextTree(project.root / ".brv", clock=lambda: NOW)  # any subfolder finds it
    done = tree.curate([
        {"type": "ADD", "path": "auth/jwt", "title": "Token expiry",
         "content": "Access tokens expire after one hour.", "reason": "decided today"},
        {"type": "ADD", "path": "auth/jwt", "title": "Refresh tokens",
         "content": "Refresh tokens are single-use.", "reason": "incident review"},
    ])
    assert done.summary.added == 2
    context = tree.hydrate("auth/jwt", budget=1500)
    assert "Token expiry" in context.document
    assert context.tokens <= 1500
    assert tree.dehydrate("auth/jwt", "JWT with 1 h expiry; single-use refresh.").changed
    assert "JWT with 1 h expiry" in tree.hydrate("auth").document
    hits = tree.search("refresh tokens single use")
    assert hits.results[0].path == "auth/jwt/refresh_tokens.md"
    same = search_tree(project, "refresh tokens single use", now=NOW)
    assert [r.path for r in same.results] == [r.path for r in hits.results]
    assert tree.query("when do access tokens expire?").tier >= 2
    assert tree.show("auth/jwt/token_expiry.md").title == "Token expiry"
    assert tree.stats().nodes_over_limit == 0
    assert tree.brain().items_loaded == 2


def test_the_api_refuses_what_the_cli_refuses(project: Project, tmp_path) -> None:
    with pytest.raises(NotInitializedError):
        ContextTree(tmp_path)
    tree = ContextTree(project.root)
    with pytest.raises(FormatError, match="operations"):
        tree.curate([{"type": "ADD", "path": "auth/jwt"}])
