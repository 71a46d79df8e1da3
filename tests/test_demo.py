"""``brv demo`` runs the main job end to end, offline, as a real process."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import brv_process


def test_demo_runs_end_to_end_and_cleans_up(tmp_path: Path) -> None:
    result = brv_process("demo", cwd=tmp_path, env={"TMPDIR": str(tmp_path)})
    assert result.exit_code == 0, result.stderr
    for line in (
        "$ brv init",
        "$ brv curate --ops ops.json",
        "2 added, 1 updated, 0 merged, 0 deleted, 0 failed",
        "$ brv tree",
        "context-tree/ (2 entries)",
        'title: "JWT Token Generation"',
        '$ brv search "refresh token rotation"',
        "1. JWT Token Generation [",
        "[tier 2 · ",
        "Backlinks: authentication/jwt_implementation/jwt_token_generation.md",
        "Pushed to origin/main.",
        "| modified | `authentication/jwt_implementation/jwt_token_generation.md` |",
        "+`incident`",
        "Demo finished.",
    ):
        assert line in result.stdout
    assert not list(tmp_path.glob("brv-demo-*"))


def test_demo_keep_leaves_the_project(tmp_path: Path) -> None:
    result = brv_process("demo", "--keep", cwd=tmp_path, env={"TMPDIR": str(tmp_path)})
    assert result.exit_code == 0, result.stderr
    kept = Path(re.search(r"The demo projects are kept in (\S+)", result.stdout).group(1))
    kept = kept / "project"
    assert (
        kept / ".brv/context-tree/authentication/jwt_implementation/jwt_token_generation.md"
    ).is_file()
    assert (kept / ".brv/context-tree/authentication/context.md").is_file()


def test_demo_steps_are_extensible() -> None:
    from brv_vc.cli import demo_cmd

    assert [s.__name__ for s in demo_cmd.STEPS] == [
        "step_init",
        "step_curate",
        "step_tree",
        "step_show_entry",
        "step_search",
        "step_query",
        "step_show",
        "step_share",
    ]
