"""``brv validate``: check the knowledge files on disk (CI, the pre-commit framework)."""

from __future__ import annotations

import json

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.plain import versioned
from brv_vc.cli.render import jsonable
from brv_vc.services import vc


def _text(result: vc.Validation) -> str:
    if not result.problems:
        return (f"brv validate: {result.checked} knowledge file(s) checked, "
                f"{result.files} file(s) of the context tree looked at: all valid")
    lines = [f"brv validate: {len(result.problems)} file(s) are not valid knowledge "
             f"({result.checked} checked)"]
    for problem in result.problems:
        key = f" (key '{problem.key}')" if problem.key else ""
        lines.append(f"  {problem.file}{key}: {problem.message}")
        if problem.hint:
            lines.append(f"    fix: {problem.hint}")
    return "\n".join(lines)


@click.command("validate")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--all", "everything", is_flag=True,
              help="Check the whole context tree, whatever PATHS say (the default without PATHS).")
@json_option
@pass_app
def validate(app: AppContext, paths: tuple[str, ...], everything: bool, as_json: bool) -> None:
    """Check knowledge files on disk: format, schema, conflict markers, layout, tracked derived files.

    PATHS are files or folders (relative to the current folder); paths outside the context
    tree are ignored, so a hook manager may pass every changed file. Without PATHS (or with
    --all) the whole tree is checked. Needs only .brv/ (no 'brv vc init'); exit 1 when a
    file is not valid knowledge, or when knowledge files were given and none was checked.

    \b
    Example:
      brv validate --all
      brv validate .brv/context-tree/auth --json
    """
    result = vc.validate_tree(app.project(), app.cwd, () if everything else paths)
    if as_json:
        click.echo(json.dumps(versioned({"ok": not result.problems, **jsonable(result)}), indent=2,
                              ensure_ascii=False))
    else:
        click.echo(_text(result), err=bool(result.problems))
    if result.problems:
        click.get_current_context().exit(1)
