"""Renders the CLI reference in docs/cli.md from the click commands themselves.

Used by the cog block in docs/cli.md (regenerate with ``cog -I . -r docs/cli.md`` from the
repository root) and by tests/test_cli_reference.py. It lives in tests/ so that it is not part of
the installed package.
"""

from __future__ import annotations

import re
import shlex
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


# a here-document's operator and delimiter (``<<EOF``, ``<<-'EOF'``, ``<< "END"``)
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\1")


def shell_lines(text: str) -> list[str]:
    """The shell commands in ``text``, one per entry, in order (blank lines skipped).

    A line ending in ``\\`` and a quote left open (a JSON literal over two lines) continue on
    the next line; a here-document (``cat > ops.json <<'EOF'`` ... ``EOF``) is part of the
    command that opens it, with its lines kept as written.
    """
    lines: list[str] = []
    pending = ""
    until = ""  # the delimiter that ends the open here-document
    for line in text.splitlines():
        if until:
            pending += line + "\n"
            if line.strip() == until:
                lines.append(pending.rstrip("\n"))
                pending, until = "", ""
            continue
        if not line.strip() and not pending:
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        pending += line
        try:
            shlex.split(pending, comments=True)
        except ValueError:  # an open quote: the string goes on on the next line
            pending += "\n"
            continue
        opened = HEREDOC.search(pending.split(" #", 1)[0])
        if opened:
            pending, until = pending.strip() + "\n", opened.group(2)
            continue
        lines.append(pending.strip())
        pending = ""
    assert not pending, f"unterminated command: {pending!r}"
    return lines


def example_lines(help_text: str) -> list[str]:
    """The shell lines of the ``Example:`` block in a docstring (it ends at a blank line)."""
    block: list[str] = []
    in_block = False
    for line in help_text.splitlines():
        if line.strip() in ("Example:", "Examples:"):
            in_block = True
        elif in_block and not line.strip():
            break
        elif in_block:
            block.append(line)
    return shell_lines("\n".join(block))
