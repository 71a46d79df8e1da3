"""Credentials are scrubbed (``brv_vc.scrub``) from MCP tool *results* and resources, not only
their errors, and from the logs brv writes under ``.brv/state/`` (the dream log and its
journal, the hooks log), as they are from the CLI's output (issue 36).

Before: ``brv show`` printed ``https://alice:***@...`` while the MCP ``brv-show`` answered the
password itself; a dream decision's reason was logged with its token.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from test_mcp_server import with_server

from brv_vc.tree.project import Project

PASSWORD = "s3cr3t-Pa55word-9f8e7d"
TOKEN = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
URL = f"https://alice:{PASSWORD}@git.example.com/team/kb.git"


def test_mcp_results_and_resources_never_hold_a_credential(project: Project, brv) -> None:
    ops = [{"type": "ADD", "path": "ops/deploy", "title": "Deploy remote",
            "content": f"The deploy pushes to {URL} with the token {TOKEN}.",
            "reason": f"copied from {URL}"}]
    texts: list[str] = []

    async def work(s):  # type: ignore[no-untyped-def]
        for name, args in (("brv-curate", {"operations": ops}),
                           ("brv-search", {"query": "deploy remote token"}),
                           ("brv-show", {"path": "ops/deploy/deploy_remote.md"}),
                           ("brv-query", {"question": "where does the deploy push?"}),
                           ("brv-hydrate", {"path": "ops"}),
                           ("brv-brain", {})):
            result = await s.call_tool(name, args)
            assert not result.is_error, (name, result.content)
            texts.append(result.content[0].text)
        texts.append((await s.read_resource("brv://brain")).contents[0].text)

    with_server(project.root, work)
    assert "alice:***@git.example.com" in json.loads(texts[2])["body"]  # the rest is kept
    for text in texts:
        assert PASSWORD not in text, text[:300]
        assert TOKEN not in text, text[:300]
    cli = brv("show", "ops/deploy/deploy_remote.md", "--json", cwd=project.root)
    assert PASSWORD not in cli.stdout  # the CLI's answer: the same rule


def _state_text(project: Project) -> str:
    found = []
    for path in sorted(project.state.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".jsonl", ".log", ".out"):
            found.append(path.read_text(errors="replace"))
    return "\n".join(found)


def test_the_dream_log_never_holds_a_credential(seeded: Project, brv) -> None:
    decisions = [{"operation": "prune", "action": "KEEP", "file": "auth/jwt/token_rotation.md",
                  "reason": f"still used by {URL} (Authorization: Bearer {TOKEN})"},
                 {"operation": "prune", "action": "KEEP", "file": "a/b/nope.md",
                  "reason": f"see ?access_token={PASSWORD}"}]
    result = brv("dream", "apply", "-", "--force", "--json", cwd=seeded.root,
                 input=json.dumps(decisions))
    assert result.exit_code == 1  # the second decision names no entry
    logs = list((seeded.state / "dream-log").glob("drm-*.json"))
    assert logs
    text = _state_text(seeded)
    assert PASSWORD not in text
    assert TOKEN not in text
    assert "alice:***@git.example.com" in text
    assert "access_token=***" in text
    assert "auth/jwt/token_rotation.md" in text  # what --undo follows is kept
    shown = brv("dream", "--log", "--json", cwd=seeded.root)
    assert shown.exit_code == 0
    assert PASSWORD not in shown.stdout


def test_the_hooks_log_never_holds_a_credential(seeded: Project) -> None:
    from brv_vc.services.vc.hook_refresh import LOG_FILE, HookRun, _log

    warning = f"git fetch failed: fatal: unable to access '{URL}': could not resolve host"
    _log(seeded, HookRun("post-merge", warnings=(warning,)), datetime(2026, 3, 1, tzinfo=UTC))
    text = (seeded.state / LOG_FILE).read_text()
    assert PASSWORD not in text
    assert "alice:***@git.example.com" in text
