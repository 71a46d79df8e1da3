"""The shapes of dream decisions, from an agent (``brv dream apply``) or a provider.

A decision is one operation ``{"operation", "action", ..., "reason"}``; the whole array is
validated before anything runs, and a bad field is named as ``operations[i].field``.
"""

from __future__ import annotations

from typing import Any

from brv_vc.errors import BrvError, FormatError
from brv_vc.format.strict_json import loads_strict
from brv_vc.services.dream import synthesize
from brv_vc.tree.layout import Kind, clean_relpath, kind_of, snake
from brv_vc.tree.project import Project


def op_files(op: dict[str, Any]) -> list[str]:
    """The entry files an operation names (target, sources, files, file, newer), once each."""
    named = [op.get("target"), *op.get("sources", []), *op.get("files", []), op.get("file"),
             op.get("newer")]
    return list(dict.fromkeys(p for p in named if isinstance(p, str) and p.endswith(".md")
                              and not p.endswith("_index.md")))


def preview(project: Project, rel: str, chars: int) -> str:
    """The first ``chars`` characters of an entry, or '' when it cannot be read as text."""
    try:
        return (project.tree / rel).read_text(encoding="utf-8")[:chars]
    except (OSError, UnicodeDecodeError):
        return ""

# Each decision is gated, logged with its backups and may queue a review: 50,000 took over
# 20 s before the first was refused. 5,000 is more than any scan's suggestions for one
# folder and keeps an apply within seconds; larger answers go in several applies.
MAX_DECISIONS = 5_000

ALLOWED = {
    "consolidate": ("MERGE", "TEMPORAL_UPDATE", "CROSS_REFERENCE", "SKIP"),
    "synthesize": ("CREATE", "SKIP"),
    "prune": ("ARCHIVE", "KEEP", "MERGE_INTO"),
}
# action -> required fields (beyond operation, action and reason) and their kinds
_FIELDS: dict[str, dict[str, str]] = {
    "MERGE": {"target": "path", "sources": "paths"},
    "TEMPORAL_UPDATE": {"file": "path"},  # and a note, a newer entry or both (_check)
    "CROSS_REFERENCE": {"files": "paths"},
    "SKIP": {},
    "CREATE": {"title": "text", "content": "text", "sources": "strings"},
    "ARCHIVE": {"file": "path"},
    "KEEP": {"file": "path"},
    "MERGE_INTO": {"file": "path", "target": "path"},
}


def load_decisions(data: str, *, file: str = "<decisions>") -> list[dict[str, Any]]:
    """Parses and validates an agent's decisions: a JSON array (or ``{"operations": [...]}``).

    Raises:
        FormatError: not JSON, or an operation with a missing or wrong field (named as
            ``operations[i].field``); nothing is applied.
    """
    parsed = loads_strict(data, what="decisions", file=file, example='[{"operation": "prune", '
                          '"action": "KEEP", "file": "a/b/c.md", "reason": "..."}]')
    if isinstance(parsed, dict) and isinstance(parsed.get("operations"), list):
        parsed = parsed["operations"]
    if not isinstance(parsed, list):
        raise FormatError("the decisions must be a JSON array of operations", file=file,
                          hint='wrap them as [...] or {"operations": [...]}')
    if len(parsed) > MAX_DECISIONS:
        raise FormatError(
            f"the file holds {len(parsed):,} decisions; one 'brv dream apply' takes at most "
            f"{MAX_DECISIONS:,}; nothing was applied", file=file,
            hint=f"split them into files of at most {MAX_DECISIONS:,} decisions and apply "
            "them one after another")
    return [_check(op, i, file) for i, op in enumerate(parsed)]


def _bad(i: int, key: str, message: str, file: str, hint: str = "") -> FormatError:
    where = f"operations[{i}]" + (f".{key}" if key else "")
    return FormatError(f"invalid decision at {where}: {message}; nothing was applied",
                       file=file, key=where,
                       hint=hint or "see 'brv dream scan --json' for the shapes it accepts")


def _check(op: Any, i: int, file: str) -> dict[str, Any]:
    if not isinstance(op, dict):
        raise _bad(i, "", "must be an object", file)
    operation, action = op.get("operation"), op.get("action")
    if operation not in ALLOWED:
        raise _bad(i, "operation", f"must be one of {', '.join(ALLOWED)}", file)
    if action not in ALLOWED[operation]:
        raise _bad(i, "action", f"{operation} allows {', '.join(ALLOWED[operation])}", file)
    if not isinstance(op.get("reason"), str) or not op["reason"].strip():
        raise _bad(i, "reason", "a non-empty reason is required", file)
    for key, kind in _FIELDS[action].items():
        value = op.get(key)
        if kind == "text" and not (isinstance(value, str) and value.strip()):
            raise _bad(i, key, "a non-empty string is required", file)
        if kind == "path":
            _path(value, i, key, file)
        if kind in ("paths", "strings"):
            if not isinstance(value, list) or not value or not all(
                    isinstance(v, str) for v in value):
                raise _bad(i, key, "a non-empty list of strings is required", file)
            if kind == "paths":
                for v in value:
                    _path(v, i, key, file)
    if action == "TEMPORAL_UPDATE":
        if op.get("newer") is not None:
            _path(op["newer"], i, "newer", file)
        elif not (isinstance(op.get("note"), str) and op["note"].strip()):
            raise _bad(i, "note", "a non-empty note, or a newer entry to link, is required",
                       file)
        if op.get("note") is not None and not isinstance(op["note"], str):
            raise _bad(i, "note", "must be a string", file)
    if action == "CROSS_REFERENCE" and len(op["files"]) < 2:
        raise _bad(i, "files", "name at least two entries to link", file)
    confidence = op.get("confidence", 1.0)
    if not isinstance(confidence, (int, float)) or not 0 <= confidence <= 1:
        raise _bad(i, "confidence", "must be a number from 0 to 1", file)
    checked = dict(op)
    if action == "CREATE":
        checked.setdefault("path", f"{synthesize.DOMAIN}/{synthesize.TOPIC}/"
                                   f"{snake(op['title'])}.md")
        _path(checked["path"], i, "path", file)
    return checked


def _path(value: Any, i: int, key: str, file: str) -> None:
    try:
        ok = isinstance(value, str) and kind_of(clean_relpath(value)) is Kind.ENTRY
    except BrvError:
        ok = False
    if not ok:
        raise _bad(i, key, f"{value!r} is not an entry path (domain/topic/name.md)", file)
