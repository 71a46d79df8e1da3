"""Every command has help with an example, and every command an agent may call takes --json
(STYLE item 14: the docs are tested too)."""

from __future__ import annotations

import click
import pytest

from brv_vc.cli.main import COMMANDS, cli

# Commands git or people run, never agents: they print for git or for a person only.
# mcp speaks JSON-RPC on stdio: its whole output is JSON already
NO_JSON = {"demo", "mcp", "merge-driver", "hook-impl", "vc textconv", "vc merge-driver"}


def _walk(group: click.Group, ctx: click.Context, prefix: str = "") -> list[tuple[str, click.Command]]:
    found = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"COMMANDS names '{name}' but it cannot be imported"
        full = f"{prefix}{name}"
        if isinstance(command, click.Group):
            found.append((full, command))
            found.extend(_walk(command, ctx, full + " "))
        else:
            found.append((full, command))
    return found


ALL = _walk(cli, click.Context(cli))


def test_the_command_table_is_complete() -> None:
    assert {name for name, _ in ALL} >= set(COMMANDS)


@pytest.mark.parametrize(("name", "command"), ALL, ids=[name for name, _ in ALL])
def test_command_has_help_with_an_example(name: str, command: click.Command) -> None:
    if command.hidden:
        return
    help_text = command.help or ""
    assert help_text.strip(), f"'brv {name}' has no help text"
    if not isinstance(command, click.Group):
        assert "Example" in help_text, f"'brv {name}' --help has no Example: block"


@pytest.mark.parametrize(("name", "command"), ALL, ids=[name for name, _ in ALL])
def test_agent_commands_take_json(name: str, command: click.Command) -> None:
    if isinstance(command, click.Group) or command.hidden or name in NO_JSON:
        return
    options = {opt for param in command.params for opt in getattr(param, "opts", [])}
    assert "--json" in options, f"'brv {name}' has no --json option"
