"""Curate stage 1, parse: a batch of operations from JSON, validated against the schema.

An invalid batch raises :class:`FormatError` naming ``operations[i].key``, and nothing applies
(docs/curate.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brv_vc.errors import FormatError
from brv_vc.format.entry import decode
from brv_vc.format.strict_json import loads_strict
from brv_vc.format.validate import errors_of
from brv_vc.services.curate.textcheck import refuse_bad_text

SCHEMA = "curate-ops"
# Each operation is resolved, built and checked on the tree its predecessors leave: 20,000
# took over 20 s before the answer. 5,000 is far past a real batch (the 16 MiB file cap holds
# 400 full-size entries) and keeps one within seconds; brv import plans its own batch.
MAX_OPS = 5_000


def load_ops(data: bytes | str, *, file: str = "<ops>") -> list[dict[str, Any]]:
    """Parses and validates a batch: a JSON array, or ``{"operations": [...]}``.

    Raises:
        FormatError: not UTF-8, not JSON, or not valid against the schema (nothing applies).
    """
    if isinstance(data, bytes) and b"\x00" in data:
        raise FormatError(
            "the operations file is binary, not JSON text",
            file=file,
            hint='give a UTF-8 JSON array such as [{"type": "ADD", ...}]',
        )
    text = decode(data, file=file, limit=None) if isinstance(data, bytes) else data
    parsed = loads_strict(text, what="operations", file=file, example='[{"type": "ADD", '
                          '"path": "auth/jwt", "title": "...", "content": "...", "reason": "..."}]')
    if isinstance(parsed, dict) and set(parsed) == {"operations"}:
        parsed = parsed["operations"]
    if not isinstance(parsed, list):
        raise FormatError(
            f"the operations must be a JSON array, got {type(parsed).__name__}",
            file=file,
            hint='wrap them as [...] or {"operations": [...]}',
        )
    validate_ops(parsed, file=file)
    return parsed


def validate_ops(ops: Sequence[Any], *, file: str = "<ops>") -> None:
    """Validates operations against the schema, naming ``operations[i].key`` on failure.

    Raises:
        FormatError: the first problem, with the count of the others.
    """
    if len(ops) > MAX_OPS:
        raise FormatError(
            f"the batch holds {len(ops):,} operations; one curate takes at most {MAX_OPS:,}; "
            "nothing was applied", file=file, key="operations",
            hint=f"split it into batches of at most {MAX_OPS:,} operations, run one after another")
    problems = errors_of(list(ops), SCHEMA)
    if not problems:
        refuse_bad_text(ops, file=file)
        return
    key, message = problems[0]
    key = "operations" + (key if key.startswith("[") else "")
    more = f" ({len(problems) - 1} more problem(s) after this one)" if len(problems) > 1 else ""
    hint = "fix it as docs/curate.md and schemas/curate-ops.schema.json describe"
    if message.startswith("needs one of 'content'"):  # the ADD rule: title and content
        wanted = message.removeprefix("needs ")
        message = f"ADD needs content: give {wanted} (a new entry requires a title and content)"
        hint = 'add "content": "markdown ..." to the operation (or rawConcept, narrative, facts)'
    raise FormatError(
        f"invalid operation at {key}: {message}{more}; nothing was applied",
        file=file,
        key=key,
        hint=hint,
    )
