"""``brv tree``."""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit
from brv_vc.services.tree_view import FolderNode, build_tree


def render_tree(root: FolderNode, *, entries: bool = True) -> str:
    """Draws the folder tree with entry counts, like ``tree(1)``."""
    label = "context-tree" if not root.path else root.path
    lines = [f"{label}/ ({_count(root.count)})"]

    def walk(node: FolderNode, indent: str) -> None:
        items: list[tuple[str, FolderNode | None]] = [(f.name, f) for f in node.folders]
        if entries:
            items += [(name, None) for name in node.entries]
        for i, (name, child) in enumerate(items):
            last = i == len(items) - 1
            branch, deeper = ("└── ", "    ") if last else ("├── ", "│   ")
            if child is None:
                lines.append(f"{indent}{branch}{name}")
            else:
                lines.append(f"{indent}{branch}{name}/ ({_count(child.count)})")
                walk(child, indent + deeper)

    walk(root, "")
    return "\n".join(lines)


def _count(n: int) -> str:
    return f"{n} entr{'y' if n == 1 else 'ies'}"


@click.command()
@click.argument("path", required=False, default="")
@click.option("--folders-only", is_flag=True, help="Show folders and counts, not entry files.")
@json_option
@pass_app
def tree(app: AppContext, path: str, folders_only: bool, as_json: bool) -> None:
    """Show the context tree: folders with entry counts, and their entries.

    Derived files (summaries, abstracts, archive) and context.md are not counted.

    \b
    Example:
      brv tree
      brv tree auth --json
    """
    result = build_tree(app.project(), path)
    emit(result, as_json, lambda r: render_tree(r, entries=not folders_only))
