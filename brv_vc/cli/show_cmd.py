"""``brv show`` and ``brv relations``."""

from __future__ import annotations

from typing import Any

import click

from brv_vc.cli.context import AppContext, json_option, pass_app
from brv_vc.cli.render import emit, warn
from brv_vc.words import plural


def _show_text(r: Any) -> str:
    s = r.signals
    lines = [f"{r.title}  ({r.path})", ""]
    for key, value in r.frontmatter.items():
        lines.append(f"{key}: {', '.join(map(str, value)) if isinstance(value, list) else value}")
    lines += ["", r.body.strip()]
    if s is None:  # a derived file: no signals, no relations of its own
        return "\n".join(lines)
    lines.append("")
    lines.append(
        f"Signals: importance {s.importance:.1f}, recency {s.recency:.2f}, {s.maturity}, "
        f"{plural(s.access_count, 'hit')}, {plural(s.update_count, 'update')}"
        + ("" if s.stored else " (defaults: never curated or searched)")
    )
    lines.append("Backlinks: " + (", ".join(r.backlinks) if r.backlinks else "none"))
    if r.dangling:
        lines.append("Dangling relations: " + ", ".join(r.dangling))
    return "\n".join(lines)


@click.command()
@click.argument("path")
@click.option("--title", help="Show the entry of exactly this title in the folder PATH.")
@json_option
@pass_app
def show(app: AppContext, path: str, title: str | None, as_json: bool) -> None:
    """Print an entry with its backlinks, dangling relations and scoring signals.

    Reading changes nothing in the tree and records no search hit.

    \b
    Example:
      brv show auth/jwt/token_rotation.md
      brv show auth/jwt/token_rotation --json
      brv show languages/cpp --title 'clang++'
    """
    from brv_vc.services.show import show_entry

    result = show_entry(app.project(), path, now=app.now, title=title)
    for note in result.notes:
        warn(note)
    emit(result, as_json, _show_text)


def _dangling_text(r: Any) -> str:
    if not r.dangling:
        return "No dangling relations."
    return "\n".join(f"{d.source} -> {d.target}" for d in r.dangling)


def _relations_text(r: Any) -> str:
    lines = [r.path, "Relations:" if r.relations else "Relations: none"]
    lines += [f"  -> {v.target}" + ("" if v.resolves else "  (dangling)") for v in r.relations]
    lines.append("Backlinks:" if r.backlinks else "Backlinks: none")
    lines += [f"  <- {source}" for source in r.backlinks]
    return "\n".join(lines)


@click.command()
@click.argument("path", required=False)
@click.option("--dangling", is_flag=True,
              help="List relations that lead nowhere (of PATH, or of the whole tree).")
@json_option
@pass_app
def relations(app: AppContext, path: str | None, dangling: bool, as_json: bool) -> None:
    """List an entry's relations and backlinks, or relations that lead nowhere.

    With PATH: what the entry names (each marked when it leads nowhere) and the entries
    that name it. With --dangling: relations whose target is neither an entry nor a folder.

    \b
    Example:
      brv relations auth/jwt/token_rotation.md
      brv relations --dangling
      brv relations --dangling --json
    """
    from brv_vc.errors import UsageError
    from brv_vc.services.show import dangling_relations, entry_relations

    result: Any
    if dangling:
        result = dangling_relations(app.project(), path)
        text = _dangling_text
    elif path:
        result = entry_relations(app.project(), path)
        text = _relations_text
    else:
        raise UsageError(
            "brv relations needs an entry PATH or --dangling",
            hint="brv relations auth/jwt/token_rotation.md, or brv relations --dangling",
        )
    for note in result.notes:
        warn(note)
    emit(result, as_json, text)
