"""The /graph page over real HTTP: it draws link_graph's SVG for an entry, a domain or all
domains, escapes a markup title, and says 404 / 400 for a missing or escaping place."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import run_brv
from ui_support import Client, history_project, served

from brv_vc.tree.project import Project


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Client]:
    project: Project = history_project(tmp_path / "proj")
    done = run_brv("curate", "add", "web/pages", "--title", "<script>alert(1)</script>",
                   "--content", "Markup.", "--related", "auth/jwt/token_rotation.md",
                   cwd=project.root)
    assert done.exit_code == 0, done.stderr
    with served(project) as running:
        yield running


def nodes(body: str) -> set[str]:
    return set(re.findall(r'<a class="node [a-z]+" href="[^"]*" data-path="([^"]*)"', body))


def test_an_entry_graph_draws_its_relations_and_backlinks(client: Client) -> None:
    answer = client.get("/graph?entry=auth%2Fjwt%2Ftoken_rotation.md")
    assert answer.status == 200
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="link-graph"' in answer.body
    assert {"auth/jwt/token_rotation.md", "auth/jwt/signing_keys.md",
            "web/pages/lt_script_gt_alert_1_lt_script_gt.md", "auth/jwt"} <= nodes(answer.body)
    assert 'href="/entry?path=auth%2Fjwt%2Fsigning_keys.md"' in answer.body


def test_a_markup_title_is_escaped_in_the_picture(client: Client) -> None:
    answer = client.get("/graph?domain=web")
    assert answer.status == 200
    assert "<script>alert" not in answer.body
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in answer.body


def test_without_a_place_it_draws_the_domains(client: Client) -> None:
    answer = client.get("/graph")
    assert answer.status == 200
    assert {"auth", "web"} <= nodes(answer.body)


def test_a_missing_entry_is_404_and_an_escaping_path_400(client: Client) -> None:
    missing = client.get("/graph?entry=auth%2Fjwt%2Fnone.md")
    assert missing.status == 404
    assert "no entry at" in missing.body
    assert client.get("/graph?domain=nowhere").status == 404
    assert client.get("/graph?entry=..%2F..%2Fetc%2Fpasswd").status == 400
