"""``brv dehydrate PATH --digest TEXT`` (seed 003): store a node's digest for its parents."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from brv_vc.errors import InvalidPathError
from brv_vc.format.tokens import count_tokens
from brv_vc.services.derived import refresh
from brv_vc.services.hydrate.nodes import check_digest, node_path, with_digest
from brv_vc.tree.layout import CONTEXT_FILE
from brv_vc.tree.project import Project
from brv_vc.tree.store import write_atomic


@dataclass(frozen=True)
class DehydrateResult:
    """Where the digest went and what it costs a parent."""

    path: str
    file: str  # the tree path of the context.md that holds it
    tokens: int
    changed: bool


def dehydrate(project: Project, path: str, digest: str, now: datetime) -> DehydrateResult:
    """Stores ``digest`` as the ``## Digest`` section of the node's ``context.md``.

    Raises:
        InvalidPathError: the root (it has no parent to read a digest), or a bad path.
        NotFoundError: no such folder.
        FormatError: an empty, too long or malformed digest (nothing is written).
    """
    rel = node_path(project, path)
    if not rel:
        raise InvalidPathError("the root has no parent to read its digest",
                               hint="dehydrate a domain, topic or subtopic, e.g. auth/jwt")
    text = check_digest(digest)
    target = project.tree / rel / CONTEXT_FILE
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise InvalidPathError(f"{rel}/{CONTEXT_FILE} is not a regular file",
                               hint="replace the link or folder with a plain context.md")
    current = target.read_text(encoding="utf-8") if target.exists() else f"# {rel}\n"
    changed = write_atomic(target, with_digest(current, text).encode("utf-8"))
    if changed:
        refresh(project, [f"{rel}/{CONTEXT_FILE}"], now)
    return DehydrateResult(rel, f"{rel}/{CONTEXT_FILE}", count_tokens(text), changed)
