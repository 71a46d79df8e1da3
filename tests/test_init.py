"""brv init (the layout, idempotent, at a git repository's top), finding the project from any
subfolder, and the entry point: ``python -m brv_vc``, usage errors and exit codes."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import brv_process


def test_init_creates_layout_and_is_idempotent(tmp_path: Path, brv) -> None:
    first = brv("init", cwd=tmp_path)
    assert first.exit_code == 0, first.stderr
    assert (tmp_path / ".brv/context-tree").is_dir()
    assert (tmp_path / ".brv/state").is_dir()
    assert "version: 1" in (tmp_path / ".brv/config.yaml").read_text()
    config_before = (tmp_path / ".brv/config.yaml").read_bytes()

    again = brv("init", "--json", cwd=tmp_path)
    assert again.exit_code == 0
    assert again.json() == {"ok": True, "root": str(tmp_path), "created": False, "created_paths": []}
    assert (tmp_path / ".brv/config.yaml").read_bytes() == config_before


def test_init_from_a_subfolder_of_a_git_repository_uses_its_top(tmp_path: Path, brv) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    deep = tmp_path / "src" / "pkg"
    deep.mkdir(parents=True)
    assert brv("init", cwd=deep).exit_code == 0
    assert (tmp_path / ".brv").is_dir()
    assert not (deep / ".brv").exists()


def test_commands_find_the_project_from_any_subfolder(tmp_path: Path, brv) -> None:
    brv("init", cwd=tmp_path)
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    result = brv("init", "--json", cwd=deep)
    assert result.json()["root"] == str(tmp_path)


def test_module_entry_point_runs(tmp_path: Path) -> None:
    result = brv_process("--version", cwd=tmp_path)
    assert result.exit_code == 0
    assert result.stdout.startswith("brv, version ")


def test_unknown_option_is_a_usage_error(tmp_path: Path, brv) -> None:
    result = brv("init", "--nope", cwd=tmp_path)
    assert result.exit_code == 2
    assert "No such option" in result.stderr
    assert not (tmp_path / ".brv").exists()


def test_exit_codes_set_by_a_command_reach_the_process(tmp_path: Path, monkeypatch) -> None:
    import click

    from brv_vc.cli import main as main_module

    @click.command()
    @click.pass_context
    def fails(ctx: click.Context) -> None:
        """Exit with 4.

        \b
        Example:
          brv fails
        """
        ctx.exit(4)

    monkeypatch.setitem(main_module.COMMANDS, "fails", "x:y")
    monkeypatch.setattr(main_module.LazyGroup, "get_command", lambda self, ctx, name: fails)
    with pytest.raises(SystemExit) as done:
        main_module.main(["fails"])
    assert done.value.code == 4
