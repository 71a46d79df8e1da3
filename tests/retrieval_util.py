"""Helpers for the retrieval tests: write entries the way curate does (atomic, canonical)."""

from __future__ import annotations

import json
from pathlib import Path

from brv_vc.format.body import build_body
from brv_vc.format.entry import Entry, serialize_entry
from brv_vc.tree.project import Project
from brv_vc.tree.store import write_atomic

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "retrieval"


def write_entry(
    project: Project,
    relpath: str,
    title: str,
    narrative: str = "",
    *,
    summary: str = "",
    tags: tuple[str, ...] = (),
    keywords: tuple[str, ...] = (),
    related: tuple[str, ...] = (),
    relation_lines: tuple[str, ...] = (),
    updated: str = "2026-01-10T10:00:00Z",
) -> Path:
    """Writes a canonical entry with write_atomic (as curate does) and returns its path."""
    sections = [("Narrative", narrative)]
    if relation_lines:
        sections.append(("Relations", "\n".join(f"- @{r}" for r in relation_lines)))
    entry = Entry(
        title=title,
        summary=summary,
        tags=tags,
        keywords=keywords,
        related=related,
        created_at="2026-01-01T10:00:00Z",
        updated_at=updated,
        body=build_body(sections),
    )
    path = project.tree / relpath
    write_atomic(path, serialize_entry(entry))
    return path


def load_labelled(project: Project) -> list[dict[str, object]]:
    """Writes the labelled corpus into the project; returns the labelled queries."""
    corpus = json.loads((FIXTURES / "corpus.json").read_text(encoding="utf-8"))
    for item in corpus:
        write_entry(
            project,
            item["path"],
            item["title"],
            item["narrative"],
            summary=item.get("summary", ""),
            tags=tuple(item.get("tags", ())),
            keywords=tuple(item.get("keywords", ())),
            related=tuple(item.get("related", ())),
        )
    return list(json.loads((FIXTURES / "queries.json").read_text(encoding="utf-8")))


def filler(project: Project, count: int, folder: str = "misc/notes") -> None:
    """Adds ``count`` unrelated entries (to reach corpus-size gates such as OOD's 50 docs)."""
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    for i in range(count):
        w = words[i % len(words)]
        write_entry(
            project,
            f"{folder}/note_{i}.md",
            f"Note {w} {i}",
            f"Meeting notes about {w} planning number {i}.",
        )
