"""The whole product, end to end, as a team uses it: curate, search, share over git with the
hooks that 'brv vc init'/'clone' install, merge without conflicts, archive on one machine and
find the archive on the other after a *plain* 'git pull'."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import vc_helpers
from vc_helpers import Team, git

team = vc_helpers.team

ROT = "auth/jwt/token_rotation.md"


def _curate(member, *ops: dict) -> dict:
    result = member.brv("curate", "--ops", "-", "--json", input=json.dumps(list(ops)))
    assert result.exit_code == 0, result.stdout + result.stderr
    return result.json()


def test_hooks_are_installed_by_init_and_clone(team: Team) -> None:
    for member in (team.alice, team.bob):
        status = member.ok("hooks", "status", "--json").json()
        assert {h["name"]: h["state"] for h in status["hooks"]} == {
            "pre-commit": "installed", "commit-msg": "installed", "post-merge": "installed",
            "post-checkout": "installed", "post-rewrite": "installed", "pre-push": "installed",
        }


def test_knowledge_travels_through_plain_git_and_stays_searchable(team: Team) -> None:
    _curate(team.alice, {
        "type": "ADD", "path": "payments/webhooks", "title": "Stripe webhook retries",
        "reason": "learned while fixing the billing outage",
        "summary": "Webhooks retry with exponential backoff for three days",
        "facts": [{"subject": "stripe", "statement": "retries last 3 days", "category": "project"}],
    })
    team.alice.sync("payments: webhook retries")

    # bob uses plain git; the post-merge hook indexes what arrived and summarises it
    pulled = subprocess.run(["git", "pull", "-q"], cwd=team.bob.tree, capture_output=True,
                            text=True, check=False)
    assert pulled.returncode == 0, pulled.stderr
    assert (team.bob.tree / "payments/webhooks/_index.md").exists()
    hits = team.bob.ok("search", "webhook retries", "--json").json()["results"]
    assert hits[0]["path"] == "payments/webhooks/stripe_webhook_retries.md"
    # derived files never show up as changes to share
    assert team.bob.ok("vc", "status", "--json").json()["untracked"] == []


def test_concurrent_edits_merge_without_conflicts(team: Team) -> None:
    _curate(team.alice, {"type": "UPDATE", "path": ROT, "reason": "r", "tags": ["security"]})
    team.alice.sync("alice tags it")
    _curate(team.bob, {"type": "UPDATE", "path": ROT, "reason": "r",
                       "facts": [{"statement": "rotation is logged", "category": "project"}]})
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob adds a fact")
    merged = team.bob.ok("vc", "pull", "--json").json()
    assert merged.get("conflicts", []) == []
    entry = team.bob.read(ROT)
    assert "security" in entry.tags
    assert any(f.statement == "rotation is logged" for f in entry.facts())
    team.bob.ok("vc", "push")


def test_an_archive_reaches_the_other_clone_through_a_plain_git_pull(team: Team) -> None:
    original = (team.alice.tree / ROT).read_bytes()
    team.alice.ok("archive", ROT)
    team.alice.ok("vc", "add")
    commit = team.alice.ok("vc", "commit", "-m", "archive stale draft", "--json").json()
    assert commit["archived"] == [ROT]
    team.alice.ok("vc", "push")

    pulled = subprocess.run(["git", "pull", "-q"], cwd=team.bob.tree, capture_output=True,
                            text=True, check=False)
    assert pulled.returncode == 0, pulled.stderr
    assert not (team.bob.tree / ROT).exists()
    assert (team.bob.tree / "_archived/auth/jwt/token_rotation.full.md").read_bytes() == original
    found = team.bob.ok("search", "token rotation", "--json").json()["results"]
    assert found[0]["path"] == "_archived/auth/jwt/token_rotation.stub.md"
    team.bob.ok("restore", ROT)
    assert (team.bob.tree / ROT).read_bytes() == original


def test_an_archive_committed_with_plain_git_reaches_the_team_too(team: Team) -> None:
    original = (team.alice.tree / ROT).read_bytes()
    team.alice.ok("archive", ROT)
    for args in (["add", "-A"], ["commit", "-q", "-m", "archive the stale draft"], ["push", "-q"]):
        proc = subprocess.run(["git", *args], cwd=team.alice.tree, capture_output=True,
                              text=True, check=False)
        assert proc.returncode == 0, proc.stderr
    # the commit-msg hook named the archive, as 'brv vc commit' does
    assert f"Brv-Archived: {ROT}" in git(team.alice.tree, "log", "-1", "--format=%B")

    pulled = subprocess.run(["git", "pull", "-q"], cwd=team.bob.tree, capture_output=True,
                            text=True, check=False)
    assert pulled.returncode == 0, pulled.stderr
    assert (team.bob.tree / "_archived/auth/jwt/token_rotation.full.md").read_bytes() == original


def test_a_pull_request_comment_describes_the_knowledge_change(team: Team) -> None:
    base = git(team.alice.tree, "rev-parse", "HEAD").strip()
    _curate(team.alice, {"type": "UPDATE", "path": ROT, "reason": "r",
                         "summary": "Refresh tokens rotate on every use and are revoked on reuse"})
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "rotation: reuse revokes")
    comment = team.alice.ok("vc", "diff", f"{base}..HEAD", "--format", "markdown").stdout
    assert "token_rotation.md" in comment
    assert "summary" in comment
    assert "revoked on reuse" in comment


def test_invalid_knowledge_cannot_be_committed_with_plain_git(team: Team, tmp_path: Path) -> None:
    (team.alice.tree / "auth/jwt/broken.md").write_text("---\ntitle: [unclosed\n---\n")
    git(team.alice.tree, "add", "auth/jwt/broken.md")
    refused = subprocess.run(["git", "commit", "-q", "-m", "oops"], cwd=team.alice.tree,
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 1
    assert "auth/jwt/broken.md: malformed YAML" in refused.stderr
    assert "--no-verify" in refused.stderr
