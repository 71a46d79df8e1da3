"""``.brv/config.yaml`` is checked by every command as soon as it changes, not when an LLM
tier first needs it; an unchanged file costs one stat."""

from __future__ import annotations

import pytest
from conftest import brv_process, snapshot

from brv_vc.tree.project import Project


@pytest.mark.parametrize(
    ("text", "message", "key"),
    [
        ("version: 1\nbogus: 1\n", "unknown key: 'bogus' was unexpected", "(top level)"),
        ("version: 2\n", "expected 1, got 2", "version"),
        ("version: 1\nllm:\n  base_url: ftp://x\n  model: m\n", "'ftp://x' does not match", "llm.base_url"),
        ("version: 1\nllm: [\n", "malformed YAML", None),
    ],
)
def test_a_bad_setting_is_reported_by_any_command(project: Project, brv, text: str, message: str,
                                                   key: str | None) -> None:
    project.config_path.write_text(text)
    before = snapshot(project.root)
    for args in (("tree",), ("search", "anything")):
        result = brv(*args, cwd=project.root)
        assert result.exit_code == 1, (args, result.stdout)
        assert message in result.stderr
        assert "  file: .brv/config.yaml" in result.stderr
        if key:
            assert f"  key: {key}" in result.stderr
    fast = brv_process("search", "anything", cwd=project.root)  # the click-free path too
    assert fast.exit_code == 1
    assert message in fast.stderr
    assert snapshot(project.root) == before


def test_a_fixed_setting_is_accepted_again(project: Project, brv) -> None:
    project.config_path.write_text("version: 2\n")
    assert brv("tree", cwd=project.root).exit_code == 1
    project.config_path.write_text("version: 1\n")
    assert brv("tree", cwd=project.root).exit_code == 0
    assert (project.state / "config.ok").is_file()
