"""``brv dream apply`` refuses more decisions than it takes, and exits 1 when a decision failed."""

from __future__ import annotations

import json
from pathlib import Path

from brv_vc.services.dream.decisions import MAX_DECISIONS
from brv_vc.tree.project import Project
from tests.conftest import snapshot


def _keep(rel: str) -> dict[str, str]:
    return {"operation": "prune", "action": "KEEP", "file": rel, "reason": "still used"}


def test_more_decisions_than_the_cap_are_refused_before_any(seeded: Project, brv,
                                                            tmp_path: Path) -> None:
    decisions = tmp_path / "many.json"
    decisions.write_text(json.dumps([_keep(f"a/b/n{i}.md") for i in range(MAX_DECISIONS + 1)]))
    before = snapshot(seeded.root)
    result = brv("dream", "apply", str(decisions), "--force", cwd=seeded.root)
    assert result.exit_code == 1
    assert (f"the file holds {MAX_DECISIONS + 1:,} decisions; one 'brv dream apply' takes at "
            f"most {MAX_DECISIONS:,}; nothing was applied") in result.stderr
    assert "hint: split them into files of at most" in result.stderr
    assert snapshot(seeded.root) == before
    assert not (seeded.state / "dream-log").exists() or not any(
        (seeded.state / "dream-log").iterdir())


def test_a_failed_decision_is_a_failed_command(seeded: Project, brv) -> None:
    answer = json.dumps([_keep("auth/jwt/token_rotation.md"), _keep("a/b/nope.md")])
    result = brv("dream", "apply", "-", "--force", cwd=seeded.root, input=answer)
    assert result.exit_code == 1
    assert "brv: error: 1 of 2 decision(s) failed (first: KEEP: no entry at 'a/b/nope.md')" \
        in result.stderr
    shown = brv("dream", "apply", "-", "--force", "--json", cwd=seeded.root, input=answer)
    assert shown.exit_code == 1
    payload = shown.json()
    assert payload["ok"] is False  # type: ignore[index]
    assert payload["error"]["code"] == "decisions_failed"  # type: ignore[index]
    assert [op["status"] for op in payload["operations"]] == [  # type: ignore[index]
        "applied", "failed"]


def test_decisions_that_all_apply_exit_0(seeded: Project, brv) -> None:
    answer = json.dumps([_keep("auth/jwt/token_rotation.md")])
    result = brv("dream", "apply", "-", "--force", "--json", cwd=seeded.root, input=answer)
    assert result.exit_code == 0, result.stderr
    assert result.json()["ok"] is True  # type: ignore[index]
