"""Renders the CLI reference in docs/cli.md from the click commands themselves.

Used by the cog block in docs/cli.md (regenerate with ``cog -I . -r docs/cli.md`` from the
repository root) and by tests/test_cli_reference.py. It lives in tests/ so that it is not part of
the installed package.
"""

from __future__ import annotations

from collections.abc import Iterator

import click
from click.testing import CliRunner

from brv_vc.cli.main import cli

# The help is rendered at a fixed width so the reference does not depend on the terminal
# (click otherwise wraps to the width of the terminal it runs in).
WIDTH = 80


def walk(
    group: click.Group = cli, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    """Every subcommand under ``group``, depth first in ``--help`` order, hidden ones included.

    Args:
        group: the group to walk; the whole ``brv`` tree by default.
        path: the words that lead to ``group`` (empty for ``brv`` itself).

    Yields:
        ``(path, command)``, e.g. ``(("vc", "commit"), <Command commit>)``.
    """
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None, f"brv {' '.join(path)} lists '{name}' but cannot load it"
        yield (*path, name), command
        if isinstance(command, click.Group):
            yield from walk(command, (*path, name))


def help_text(path: tuple[str, ...]) -> str:
    """The exact output of ``brv <path> --help`` at the fixed width."""
    result = CliRunner().invoke(
        cli, [*path, "--help"], prog_name="brv", terminal_width=WIDTH, catch_exceptions=False
    )
    assert result.exit_code == 0, f"brv {' '.join(path)} --help failed:\n{result.output}"
    return result.stdout


def render() -> str:
    """The generated part of docs/cli.md: an index, then one section per visible command."""
    paths = [()] + [path for path, command in walk() if not command.hidden]
    titles = [" ".join(("brv", *path)) for path in paths]
    # subcommands are indented under their group in the index and one heading level deeper
    lines = [
        f"{'  ' * max(len(path) - 1, 0)}- [`{title}`](#{title.replace(' ', '-')})"
        for path, title in zip(paths, titles, strict=True)
    ]
    for path, title in zip(paths, titles, strict=True):
        level = "#" * max(len(path) + 1, 2)
        lines += ["", f"{level} {title}", "", "```", help_text(path).rstrip("\n"), "```"]
    return "\n".join(lines) + "\n"
