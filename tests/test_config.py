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
        ("version: 1\nllm: [\n", "malformed YAML (line 3, column 1)", None),
        ("version: 1\nsearch:\n  limit: [1,\n", "malformed YAML (line 4, column 1)", None),
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


def test_a_bad_llm_section_warns_where_no_provider_is_used_and_blocks_where_it_is(
    project: Project, brv
) -> None:
    project.config_path.write_text("version: 1\nllm:\n  base_url: http://127.0.0.1:9/v1\n"
                                   "  model: m\n  modle: typo\n")
    before = snapshot(project.root)
    for args in (("tree",), ("search", "anything")):
        result = brv(*args, cwd=project.root)
        assert result.exit_code == 0, (args, result.stderr)
        assert "brv: warning: .brv/config.yaml: 'llm' unknown key: 'modle'" in result.stderr
        assert "refuse to run until it is fixed" in result.stderr
    fast = brv_process("search", "anything", cwd=project.root)  # the click-free path hands over
    assert fast.exit_code == 0
    assert "unknown key: 'modle'" in fast.stderr
    # the stamp keeps the warning: it repeats on every command without validating again
    assert (project.state / "config.ok").read_text().endswith("refuse to run until it is fixed")
    again = brv("tree", cwd=project.root)
    assert "unknown key: 'modle'" in again.stderr
    fast_again = brv_process("vc", "status", cwd=project.root)
    assert "unknown key: 'modle'" in fast_again.stderr
    used = brv("summarize", cwd=project.root)  # the provider is needed here: refused
    assert used.exit_code == 1
    assert "unknown key: 'modle' was unexpected" in used.stderr
    assert "  key: llm" in used.stderr
    assert snapshot(project.root) == before
