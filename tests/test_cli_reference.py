"""docs/cli.md is the --help of every command, and every ``Example:`` in --help parses.

STYLE item 14: the CLI reference is generated with cog, so this test fails when it drifts from
``--help``; and an example that uses a removed option or a missing argument fails here, not in
a reader's terminal.
"""

from __future__ import annotations

import difflib
import re
import shlex
from pathlib import Path

import click
import pytest
from cli_reference import example_lines, render, walk
from cogapp import Cog

from brv_vc.cli.main import cli

DOC = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
REGENERATE = "cog -I . -r docs/cli.md"


def _staleness(text: str) -> str:
    """The diff between ``text`` and what cog generates from it ('' when up to date)."""
    generated = Cog().process_string(text, fname=str(DOC))
    return "".join(
        difflib.unified_diff(
            text.splitlines(keepends=True),
            generated.splitlines(keepends=True),
            "docs/cli.md",
            "docs/cli.md as cog would generate it",
        )
    )


def test_cli_reference_matches_help() -> None:
    diff = _staleness(DOC.read_text(encoding="utf-8"))
    if diff:
        pytest.fail(
            "docs/cli.md is out of date with `brv --help`. Regenerate it from the repository "
            f"root with:\n\n    {REGENERATE}\n\n{diff}",
            pytrace=False,
        )


def test_a_stale_reference_is_detected() -> None:
    current = DOC.read_text(encoding="utf-8")
    stale = current.replace("Show this message and exit.", "Show this message.", 1)
    assert stale != current
    assert "-  -h, --help  Show this message." in _staleness(stale)


def test_reference_lists_visible_commands_only() -> None:
    headings = {line.lstrip("#").strip() for line in render().splitlines() if line.startswith("#")}
    for path, command in walk():
        title = " ".join(("brv", *path))
        assert (title in headings) != command.hidden, title
    assert "brv" in headings


def test_links_into_the_reference_resolve() -> None:
    anchors = {
        line.lstrip("#").strip().replace(" ", "-")
        for line in DOC.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    }
    links = [
        (page.name, anchor)
        for page in sorted(DOC.parent.glob("*.md"))
        for anchor in re.findall(r"\(cli\.md#([\w-]+)\)", page.read_text(encoding="utf-8"))
    ]
    assert links, "no page links to the CLI reference"
    assert [(page, anchor) for page, anchor in links if anchor not in anchors] == []


# --- every Example: line is a valid invocation of its command -------------------------------

CONTROL = {"|", "||", "&&", ";", "&"}
REDIRECT = {">", ">>", "<"}


def brv_invocations(line: str) -> list[list[str]]:
    """The arguments of each ``brv`` command in a shell line (pipes, ``&&`` and ``>`` split off)."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    skip_next = False
    for token in lexer:
        if skip_next:
            skip_next = False
        elif token in CONTROL:
            commands.append([])
        elif token in REDIRECT:
            skip_next = True  # the file name after > is not an argument
        else:
            commands[-1].append(token)
    return [words[1:] for words in commands if words and words[0] == "brv"]


def invoked_path(args: list[str]) -> tuple[str, ...]:
    """The command that ``brv ARGS`` runs, after parsing every option and argument as click does.

    Raises:
        click.UsageError: an unknown command or option, a missing or extra argument, a bad value.
    """
    command: click.Command = cli
    ctx = cli.make_context("brv", list(args))
    path: tuple[str, ...] = ()
    while isinstance(command, click.Group):
        # A group stops parsing at its subcommand's name and keeps the rest in these two
        # fields; Group.invoke reads them the same way.
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            if command.invoke_without_command:  # e.g. brv curate --ops FILE
                break
            raise click.UsageError("Missing command.", ctx)
        name, found, rest = command.resolve_command(ctx, rest)
        assert name is not None  # resolve_command raises for an unknown name
        assert found is not None
        command, path = found, (*path, name)
        ctx = command.make_context(name, rest, parent=ctx)
    return path


ALL = [((), cli), *walk()]


@pytest.mark.parametrize(
    ("path", "command"), ALL, ids=[" ".join(("brv", *path)) for path, _ in ALL]
)
def test_examples_are_valid_invocations(path: tuple[str, ...], command: click.Command) -> None:
    for line in example_lines(command.help or ""):
        for args in brv_invocations(line):
            shown = shlex.join(["brv", *args])
            try:
                reached = invoked_path(args)
            except click.UsageError as error:
                pytest.fail(f"example `{shown}` is not valid: {error.format_message()}")
            # a group's examples may show its subcommands; a command's examples show itself
            if isinstance(command, click.Group):
                assert reached[: len(path)] == path, f"`{shown}` is not a 'brv {' '.join(path)}'"
            else:
                assert reached == path, f"`{shown}` runs 'brv {' '.join(reached)}'"


def test_example_parsing() -> None:
    help_text = (
        "Do things.\n\n\b\nExample:\n"
        "  brv search jwt --limit 5   # five results\n"
        "  brv curate add a/b --title T \\\n    --content C\n"
        '  echo \'[{"a": 1,\n     "b": 2}]\' | brv curate --ops -\n'
        "  brv vc add && brv vc diff x..y > out.md\n\n"
        "Not an example: brv nothing\n"
    )
    lines = example_lines(help_text)
    assert [args for line in lines for args in brv_invocations(line)] == [
        ["search", "jwt", "--limit", "5"],
        ["curate", "add", "a/b", "--title", "T", "--content", "C"],
        ["curate", "--ops", "-"],
        ["vc", "add"],
        ["vc", "diff", "x..y"],
    ]


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["search", "jwt", "--limit", "many"], "'many' is not a valid integer"),
        (["search", "jwt", "--no-such-option"], "No such option"),
        (["search"], "Missing parameter: query"),
        (["vc", "nope"], "No such command 'nope'"),
        (["-C", "elsewhere"], "Missing command"),
        (["vc", "commit", "-m"], "'-m' requires an argument"),
    ],
)
def test_an_invalid_example_is_refused(args: list[str], problem: str) -> None:
    with pytest.raises(click.UsageError, match=problem):
        invoked_path(args)
