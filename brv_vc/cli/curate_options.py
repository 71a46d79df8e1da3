"""The options of the ``brv curate`` shortcuts, turned into one operation and checked.

A shortcut builds the same operation an ``--ops`` file holds, but its errors must name what
the user typed (``--file big.txt``, ``--title``), not ``operations[0].content``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import click

from brv_vc.cli.context import json_option
from brv_vc.cli.input_files import MAX_CONTENT_BYTES, read_source
from brv_vc.errors import FormatError, UsageError
from brv_vc.format.entry import decode
from brv_vc.format.validate import errors_of
from brv_vc.services.curate import SCHEMA

_FLAG = {"target": "--into", "content": "--content"}
_ARGUMENT = {"ADD": "FOLDER", "UPDATE": "ENTRY", "UPSERT": "PATH", "DELETE": "PATH",
             "MERGE": "SOURCE"}
# the operation keys a shortcut sets that change an entry (--reason alone changes nothing)
_CHANGES = {"content", "title", "summary", "tags", "keywords", "related"}
_KEY_RE = re.compile(r"^\[0\]\.(?P<name>[A-Za-z]+)(?:\[(?P<item>\d+)\])?")


dry_run_option = click.option(
    "--dry-run", is_flag=True, help="Check and report what would change; write nothing."
)


def content_options(func: Any) -> Any:
    """Decorates a shortcut with the content options (title, content, file, ...)."""
    options = [
        click.option("--title", help="Entry title (the file is named after it)."),
        click.option("--content", help="Markdown content ('## ' sections make it the whole body)."),
        click.option(
            "--file", "content_file", metavar="FILE|-", help="Read the content from FILE."
        ),
        click.option("--summary", help="One-line summary."),
        # multiple=True: a repeated option adds its values instead of silently replacing them
        click.option("--tags", multiple=True, help="Tags, comma-separated (repeatable)."),
        click.option(
            "--keywords", multiple=True, help="Search keywords, comma-separated (repeatable)."
        ),
        click.option(
            "--related",
            multiple=True,
            help="Related entry paths domain/topic/entry.md, comma-separated (repeatable).",
        ),
        click.option("--reason", help="Why (kept in the audit log)."),
        dry_run_option,
        json_option,
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _split(values: Sequence[str]) -> list[str]:
    """Every comma-separated value of a repeatable option, in order (``--tags ""`` gives [])."""
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def build_op(kind: str, path: str, opts: Mapping[str, Any]) -> dict[str, Any]:
    """Builds the operation a shortcut stands for from its parsed options.

    Raises:
        UsageError: both --content and --file.
        FormatError: the --file cannot be read or is not UTF-8 text.
    """
    op: dict[str, Any] = {
        "type": kind,
        "path": path,
        "reason": opts.get("reason")
        if opts.get("reason") is not None
        else f"{kind.lower()} with brv curate {kind.lower()}",
    }
    if opts.get("content") is not None and opts.get("content_file"):
        raise UsageError("give --content or --file, not both")
    if opts.get("content_file"):
        source = opts["content_file"]
        op["content"] = decode(read_source(source, "content", MAX_CONTENT_BYTES), file=source)
    elif opts.get("content") is not None:
        op["content"] = opts["content"]
    for name in ("title", "summary"):
        if opts.get(name) is not None:
            op[name] = opts[name]
    for name in ("tags", "keywords", "related"):
        if opts.get(name):  # () when absent: the stored list stays; ("",) clears it
            op[name] = _split(opts[name])
    return op


def option_label(op: Mapping[str, Any], name: str, opts: Mapping[str, Any]) -> str:
    """How the user gave the operation key ``name``: ``--file big.txt``, ``--title``, ``PATH``."""
    if name == "content" and opts.get("content_file"):
        return f"--file {opts['content_file']}"
    if name == "path":
        return _ARGUMENT.get(str(op.get("type")), "PATH")
    return _FLAG.get(name, f"--{name}")


def check_shortcut(op: Mapping[str, Any], opts: Mapping[str, Any]) -> None:
    """Validates a shortcut's operation, naming the option at fault.

    Raises:
        FormatError: the first problem, phrased with the option the user typed.
    """
    command = f"brv curate {str(op['type']).lower()}"
    if op["type"] == "ADD":
        _check_add(op, opts, command)
    problems = errors_of([dict(op)], SCHEMA)
    if problems:
        key, message = problems[0]
        match = _KEY_RE.match(key)
        name = match.group("name") if match else ""
        label = option_label(op, name, opts) if name else command
        if match and match.group("item") is not None:
            label += f" (item {int(match.group('item')) + 1})"
        hint = (
            "split the knowledge into several entries (40,000 characters at most per entry)"
            if name == "content"
            else f"fix {label}; '{command} --help' lists the options"
        )
        raise FormatError(f"{label} {message}; nothing was written", key=label.split()[0],
                          hint=hint,
                          file=opts.get("content_file") if name == "content" else None)
    if op["type"] == "UPDATE" and not _CHANGES & set(op):
        raise UsageError(
            "nothing to update: give --content, --file, --title, --summary, --tags, --keywords "
            "or --related",
            hint=f"'{command} --help' lists the options; the entry was left as it is",
        )
    if op["type"] in ("UPDATE", "UPSERT") and "content" in op and not op["content"].strip():
        label = option_label(op, "content", opts)
        why = "it would leave the entry without content" if op["type"] == "UPDATE" else (
            "an entry needs content"
        )
        raise FormatError(
            f"{label} is empty; {why}",
            key=label.split()[0],
            file=opts.get("content_file"),
            hint="give the entry's text with --content TEXT or --file FILE (or leave both out "
            "to keep it); to remove the entry use 'brv curate delete'",
        )
    path = str(op["path"]).strip()
    if op["type"] in ("UPDATE", "UPSERT") and not path.endswith(".md") and not op.get("title"):
        raise FormatError(
            f"{command} {path} needs --title: {path} is a folder",
            key="--title",
            hint=f'add --title "..." (the entry {path}/<snake_case(title)>.md), '
            "or give the entry path domain/topic/entry.md",
        )


def _check_add(op: Mapping[str, Any], opts: Mapping[str, Any], command: str) -> None:
    if str(op["path"]).strip().endswith(".md"):
        raise FormatError(
            f"{command} takes a folder DOMAIN/TOPIC[/SUBTOPIC], not the file '{op['path']}'",
            key="FOLDER",
            hint="give the folder and --title, or use 'brv curate upsert' with the entry path",
        )
    if "content" not in op:
        raise FormatError(
            f"{command} needs content: give --content TEXT or --file FILE",
            key="--content",
            hint="a new entry requires a title and content (as in ByteRover's ADD)",
        )
    if not op["content"].strip():
        label = option_label(op, "content", opts)
        raise FormatError(
            f"{label} is empty; a new entry needs content",
            key=label,
            file=opts.get("content_file"),
            hint="give the entry's text with --content TEXT or --file FILE",
        )
