"""The LLM engine (``llm:`` configured): the provider decides, the detectors propose.

One call per domain (consolidate), one for synthesis, one per prune batch. Each call gets
the detectors' candidates with the entries' text and answers with decisions of the shapes
``brv dream apply`` takes, about those candidates' files only. Any failure (the provider
unreachable, an HTTP error, a reply that is not such an array) falls back to the
detectors' own decisions for that call, and the dream notes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from brv_vc.errors import BrvError, FormatError
from brv_vc.llm.client import complete
from brv_vc.services.dream.decisions import ALLOWED, load_decisions, op_files, preview
from brv_vc.tree.config import LlmSettings
from brv_vc.tree.project import Project

Op = dict[str, Any]
PREVIEW = 2000
_SYSTEM = (
    "You maintain a team's knowledge base of markdown entries. A tidy-up ('dream') found "
    "the candidates below. Decide each one. Reply with ONLY a JSON array of operations, no "
    "prose. Shapes (every operation needs a short 'reason'):\n"
    '{"operation": "consolidate", "action": "MERGE", "target": PATH, "sources": [PATH], '
    '"confidence": 0-1}\n'
    '{"operation": "consolidate", "action": "TEMPORAL_UPDATE", "file": PATH, "note": TEXT, '
    '"confidence": 0-1}\n'
    '{"operation": "consolidate", "action": "CROSS_REFERENCE", "files": [PATH, PATH]}\n'
    '{"operation": "consolidate", "action": "SKIP", "files": [PATH]}\n'
    '{"operation": "synthesize", "action": "CREATE", "title": T, "summary": S, "content": '
    'MARKDOWN, "sources": [PATH], "confidence": 0-1} or {"operation": "synthesize", '
    '"action": "SKIP"}\n'
    '{"operation": "prune", "action": "ARCHIVE" | "KEEP", "file": PATH} or '
    '{"operation": "prune", "action": "MERGE_INTO", "file": PATH, "target": PATH}\n'
    "Use only the paths given."
)


def _group(phase: str, ops: Sequence[Op]) -> list[list[Op]]:
    if phase != "consolidate":
        return [list(ops)]
    groups: dict[str, list[Op]] = {}
    for op in ops:
        files = op_files(op)
        groups.setdefault(files[0].split("/", 1)[0] if files else "", []).append(op)
    return [groups[k] for k in sorted(groups)]


def _prompt(project: Project, phase: str, ops: Sequence[Op]) -> list[dict[str, str]]:
    content = {path: preview(project, path, PREVIEW)
               for path in dict.fromkeys(p for op in ops for p in op_files(op))}
    user = json.dumps({"phase": phase, "allowed": ALLOWED[phase], "candidates": list(ops),
                       "content": content}, ensure_ascii=False)
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def _parse(text: str, phase: str, ops: Sequence[Op]) -> list[Op]:
    body = text.strip()
    if body.startswith("```"):
        body = body.strip("`").removeprefix("json").strip()
    decided = load_decisions(body, file="<provider reply>")
    known = {p for op in ops for p in op_files(op)}
    for i, op in enumerate(decided):
        if op["operation"] != phase:
            raise FormatError(f"decision {i} is about {op['operation']}, not {phase}")
        stray = [p for p in op_files(op) if p not in known]
        if stray and op["action"] != "CREATE":
            raise FormatError(f"decision {i} names {stray[0]}, which is not a candidate")
    return [op for op in decided if not (op["action"] == "SKIP" and phase == "synthesize")]


def refine(settings: LlmSettings, project: Project, phase: str, ops: Sequence[Op],
           notes: list[str]) -> list[Op]:
    """The provider's decisions for the detectors' ``ops`` (theirs where a call fails)."""
    out: list[Op] = []
    for group in _group(phase, ops):
        if not group:
            continue
        try:
            reply = complete(settings, _prompt(project, phase, group), temperature=0.0,
                             max_tokens=2000, retries=0)
            out.extend(_parse(reply.content, phase, group))
        except BrvError as error:
            notes.append(f"{phase}: the provider's decision was not usable ({error.message}); "
                         "the detectors decided")
            out.extend(group)
    return out
