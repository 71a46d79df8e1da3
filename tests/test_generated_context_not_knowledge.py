"""A generated context.md is filler: no search/query hit, no diff entry, no summary purpose."""

from __future__ import annotations

import json
from pathlib import Path

import vc_helpers
from vc_helpers import Team

from brv_vc.tree.generated import is_generated, mark
from brv_vc.tree.project import Project

team = vc_helpers.team


def _tour(brv, root: Path) -> None:
    for folder, title, content in (
        ("auth/jwt", "Token rotation", "Refresh tokens are single-use; a reused one revokes "
         "the whole family."),
        ("api/pagination", "Cursor pagination", "List endpoints page with opaque cursors."),
        ("infra/deploy", "Blue green deploys", "Deploys switch the load balancer at once."),
    ):
        result = brv("curate", "add", folder, "--title", title, "--content", content,
                     "--tags", "security,jwt", "--reason", "tour", cwd=root)
        assert result.exit_code == 0, result.output


def test_the_marker_is_exact() -> None:
    body = "# Domain: auth\n\n## Purpose\nCovers auth.\n"
    data = mark(body).encode()
    assert is_generated(data)
    assert is_generated(data.replace(b"\n", b"\r\n"))  # a core.autocrlf checkout agrees
    assert not is_generated(data.replace(b"Covers", b"Covers the"))  # one word edited
    assert not is_generated(data + b"\n## Digest\nOwned by the identity team.\n")
    assert not is_generated(body.encode())  # no marker: written by a person or another tool
    assert not is_generated(data.replace(b'---\n\n', b'---\nowner: me\n---\n\n', 1))


def test_generated_context_is_never_a_search_or_query_hit(project: Project, brv) -> None:
    _tour(brv, project.root)
    domain = (project.tree / "auth" / "context.md").read_bytes()
    assert is_generated(domain)
    hits = brv("search", "owning team security jwt", "--json", cwd=project.root).json()
    paths = [r["path"] for r in hits["results"]]
    assert paths
    assert not any(p.endswith("context.md") for p in paths), paths
    answer = brv("query", "who is the owning team of auth?", "--json", cwd=project.root).json()
    assert "context.md" not in str(answer.get("sources", answer))
    # edited by a person: knowledge from then on
    with (project.tree / "auth" / "context.md").open("a") as handle:
        handle.write("\nThe identity team owns auth; page them on refresh token reuse.\n")
    hits = brv("search", "identity team page", "--json", cwd=project.root).json()
    assert [r["path"] for r in hits["results"]][:1] == ["auth/context.md"]


def test_generated_context_feeds_no_summary(project: Project, brv) -> None:
    _tour(brv, project.root)
    summary = (project.tree / "auth" / "_index.md").read_text()
    assert "Covers the project's knowledge" not in summary
    assert "jwt" in summary


def test_generated_context_is_no_entry_of_a_diff(team: Team) -> None:
    alice = team.alice
    alice.ok("curate", "add", "billing/invoices", "--title", "Invoice numbering",
             "--content", "Invoice numbers never repeat across years.", "--reason", "tour")
    alice.ok("vc", "add")
    staged = alice.ok("vc", "diff", "--staged", "--json").json()
    paths = [e["path"] for e in staged["entries"]]
    assert "billing/invoices/invoice_numbering.md" in paths
    assert not [p for p in paths if p.endswith("context.md")], paths
    markdown = alice.ok("vc", "diff", "--staged", "--format", "markdown").stdout
    assert "context.md" not in markdown
    alice.ok("vc", "commit", "-m", "invoices")
    context = alice.tree / "billing" / "context.md"
    context.write_text(context.read_text() + "\nOwned by the payments team.\n")
    edited = alice.ok("vc", "diff", "--json").json()
    assert [e["path"] for e in edited["entries"]] == ["billing/context.md"]


def test_a_thousand_entries_no_generated_context_in_hits_or_diff(project: Project, brv) -> None:
    from dream_support import NOW

    from brv_vc.services.curate import run_batch

    ops = [{"type": "ADD", "path": f"area{i % 10}/topic{i % 10}_{i // 100}",
            "title": f"Rule {i}", "content": f"Rule {i} keeps the ledger of part {i} exact.",
            "summary": f"Part {i} ledger rule.", "tags": ["ledger"], "reason": "t"}
           for i in range(1000)]
    assert run_batch(project, ops, NOW).ok
    generated = [p for p in project.tree.rglob("context.md") if is_generated(p.read_bytes())]
    assert len(generated) == 110
    for question in ("owning team", "Key Concepts ledger", "project's knowledge about area3",
                     "ledger rule part 7"):
        hits = brv("search", question, "--json", "--limit", "50", cwd=project.root).json()
        assert not [r["path"] for r in hits["results"] if r["path"].endswith("context.md")]
        answer = brv("query", question, "--json", cwd=project.root).json()
        assert "context.md" not in json.dumps(answer)
    assert brv("vc", "init", cwd=project.root).exit_code == 0
    assert brv("vc", "add", cwd=project.root).exit_code == 0
    staged = brv("vc", "diff", "--staged", "--json", cwd=project.root).json()
    entries = [e["path"] for e in staged["entries"] if e["path"].endswith(".md")]
    assert len(entries) == 1000
    assert not [p for p in entries if p.endswith("context.md")]
