"""``brv vc diff``, and what git calls back: the textconv and the hidden ``brv merge-driver``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, jsonable
from brv_vc.cli.vc.options import repo_of
from brv_vc.services import vc
from brv_vc.tree.project import Project
from brv_vc.vc.repo import KnowledgeRepo


@click.command()
@click.argument("ref", required=False)
@click.option("--staged", is_flag=True, help="Compare HEAD with the index.")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]),
              default="text", show_default=True,
              help="markdown: ready for a PR comment; json: the same as --json.")
@json_option
@pass_app
def diff(app: AppContext, ref: str | None, staged: bool, fmt: str, as_json: bool) -> None:
    """Semantic diff of knowledge: entries added, removed, renamed or modified.

    A modified entry shows its frontmatter field by field, its body section by section and
    its relations.

    REF compares REF with the working tree; A..B compares two commits.

    \b
    Example:
      brv vc diff --staged
      brv vc diff origin/main..HEAD --format markdown > comment.md
    """
    from brv_vc.vc.diff_render import render_markdown, render_text

    if as_json and fmt not in ("text", "json"):
        raise click.UsageError(f"--json and --format {fmt} ask for two formats; give one")
    answer, report, code = diff_answer(app.project(), repo_of(app), ref, staged)
    if as_json or fmt == "json":
        emit(answer, True, str)
    elif fmt == "markdown":
        click.echo(render_markdown(report.entries, report.base, report.target,
                                   (code.stale, code.updated)), nl=False)
    else:
        click.echo(render_text(report.entries, report.base, report.target))


def diff_answer(project: Project, repo: KnowledgeRepo, ref: str | None, staged: bool
                ) -> tuple[dict[str, Any], vc.DiffReport, vc.CodeKnowledge]:
    """``brv vc diff --json``'s answer (shared with MCP's brv-vc-diff), the report and the code.

    ``code``: in-project ``A..B`` only, the entries linked to the code the range changes.
    """
    report = vc.semantic_diff(repo, ref, staged=staged)
    code = vc.code_knowledge(project, repo, None if staged else ref)
    return ({"base": report.base, "target": report.target, "counts": report.counts(),
             "entries": jsonable(report.entries), "code": jsonable(code)}, report, code)


@click.command(hidden=True)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def textconv(file: Path) -> None:
    """Textconv for git: a knowledge file as a normalised, readable rendering."""
    click.echo(vc.render_textconv(file), nl=False)


@click.command("merge-driver", hidden=True)
@click.argument("base", type=click.Path(path_type=Path))
@click.argument("ours", type=click.Path(path_type=Path))
@click.argument("theirs", type=click.Path(path_type=Path))
@click.argument("path", required=False, default="")
def merge_driver(base: Path, ours: Path, theirs: Path, path: str) -> None:
    """Merge driver for git (%O %A %B %P): merge a knowledge file; exit 1 on conflicts."""
    result = vc.run_merge_driver(base, ours, theirs, path)
    if result.conflicts:
        click.echo(f"brv: conflict in {path}: {', '.join(result.conflicts)}", err=True)
        raise click.exceptions.Exit(1)
