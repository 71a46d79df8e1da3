"""Helpers shared by the summary/abstract/manifest/archive tests (no tests here)."""

from __future__ import annotations

from pathlib import Path

from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.tree.project import Project


def write_entry(project: Project, rel: str, title: str, *, summary: str = "",
                updated: str = "2026-01-10T10:00:00Z", facts: str = "",
                narrative: str = "") -> bytes:
    """Writes a canonical entry at ``rel`` and returns its bytes."""
    body = build_body([
        ("Narrative", narrative or f"### Structure\n{title} is described here. It has rules."),
        ("Facts", facts or f"- **{title.split()[0].lower()}**: {title} matters [project]"),
    ])
    data = serialize_entry(Entry(
        title=title, summary=summary or f"About {title.lower()}.", tags=("t",),
        keywords=("kw",), created_at=updated, updated_at=updated, body=body,
    ))
    path = project.tree / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def small_tree(project: Project) -> None:
    """auth/jwt (2 entries + a subtopic), auth/oauth (1 entry), db/models (1 entry)."""
    write_entry(project, "auth/jwt/token_generation.md", "Token Generation")
    write_entry(project, "auth/jwt/token_rotation.md", "Token Rotation")
    write_entry(project, "auth/jwt/refresh/refresh_rules.md", "Refresh Rules")
    write_entry(project, "auth/oauth/code_flow.md", "Code Flow")
    write_entry(project, "db/models/user_model.md", "User Model")
    (project.tree / "auth/context.md").write_text(
        "# Domain: auth\n\n## Purpose\nCovers authentication patterns.\n"
    )


def derived_files(root: Path) -> dict[str, bytes]:
    """Bytes of every derived file under a tree."""
    out = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if path.is_file() and (
            path.name in ("_index.md", "_manifest.json")
            or path.name.endswith((".abstract.md", ".overview.md"))
            or rel.startswith("_archived/")
        ):
            out[rel] = path.read_bytes()
    return out
