"""Small trees for the dream and review tests: entries curated at a fixed clock."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from brv_vc.services import curate
from brv_vc.tree.project import Project

NOW = datetime(2025, 3, 1, 10, tzinfo=UTC)
ISO = "2025-03-01T10:00:00Z"
OAUTH = ("OAuth tokens refresh through the auth server. Refresh tokens rotate on every use "
         "and expire after 30 days; the client retries once on a 401.")


def add(project: Project, folder: str, title: str, content: str, now: datetime = NOW,
        **extra: Any) -> str:
    """Curates one ADD and returns the entry's path."""
    op = {"type": "ADD", "path": folder, "title": title, "content": content, "reason": "test",
          **extra}
    result = curate.run_batch(project, [op], now)
    assert result.ok, result
    return result.applied[0].file


def age(project: Project, rel: str, days: float, now: datetime = NOW) -> None:
    """Sets an entry's mtime ``days`` before ``now``."""
    stamp = (now - timedelta(days=days)).timestamp()
    os.utime(project.tree / rel, (stamp, stamp))


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every knowledge file (derived files left out) with its bytes."""
    tree = root / ".brv" / "context-tree"
    out = {}
    for path in sorted(tree.rglob("*.md")):
        rel = path.relative_to(tree).as_posix()
        name = path.name
        if name.startswith("_") or name == "context.md" or name.endswith(
                (".abstract.md", ".overview.md")):
            continue
        out[rel] = path.read_bytes()
    return out


def duplicate_pair(project: Project) -> tuple[str, str]:
    """Two entries of one topic covering the same thing (a MERGE for the detectors)."""
    a = add(project, "api/auth", "OAuth flow", OAUTH)
    b = add(project, "api/auth", "OAuth flow notes", OAUTH)
    return a, b


def logged_ops(project: Project, dream_id: str | None) -> list[dict[str, Any]]:
    """Every operation of a dream, SKIPs too, as its log keeps them (the result counts those)."""
    from brv_vc.services.dream import dreamlog

    assert dream_id is not None
    return list(dreamlog.read(project, dream_id)["operations"])
