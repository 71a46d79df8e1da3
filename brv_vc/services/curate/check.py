"""Curate stage 4, check: a built plan against the tree it would land in, before any write.

Refused here, so a failed operation changes nothing and ``--atomic`` and ``--dry-run`` see it:
a file standing where a new entry's folder belongs (or a folder where its ``context.md``
belongs), an entry over seed 002's size cap, text every reader would take for an unresolved
merge conflict, and an entry ``brv validate`` would reject (a field such as
``createdAt: "2024-13-45T00:00:00Z"`` passes the operations' schema pattern but is no date).
"""

from __future__ import annotations

from brv_vc.errors import FormatError
from brv_vc.format.conflicts import conflict_line
from brv_vc.services.curate.obstacles import check_folders
from brv_vc.services.curate.plan import Plan, Target
from brv_vc.services.curate.view import View
from brv_vc.services.entry_check import entry_check
from brv_vc.tree.layout import Kind

MAX_CHARS = 40_000  # seed 002 Table 7: max chars per file


def check(target: Target, plan: Plan, view: View) -> None:
    """Refuses a plan that cannot or must not be written.

    Raises:
        ConflictError: something stands where a new entry's folders belong.
        FormatError: the entry is too large, or holds a merge-conflict block.
    """
    if target.kind == "add":
        check_folders(view, target.segments)
    if plan.entry is not None:
        _check_size(plan.file, plan.entry.body)
    _refuse_marker_blocks(plan)
    _refuse_unreadable(plan)


def _refuse_unreadable(plan: Plan) -> None:
    """Refuses an entry that brv could not read back, by the rules of ``brv validate``.

    Trigger: the operation's entry as it would be written. Why: a field the operations'
    schema lets through (a 13th month, a 45th day) was written and then rejected by
    ``brv show`` and ``brv validate`` and skipped by the index. Outcome: the operation fails
    with validate's own message (file, key, fix) and nothing is written.
    """
    for rel, data in plan.writes:
        if rel == plan.file and plan.entry is not None:
            entry_check(data, rel, Kind.ENTRY)


def _check_size(rel: str, body: str) -> None:
    if len(body) > MAX_CHARS:
        raise FormatError(
            f"the entry '{rel}' would be {len(body):,} characters with its section headings; "
            f"the limit is {MAX_CHARS:,}",
            file=rel,
            key="content",
            hint="split the knowledge into several entries (seed 002 caps a file at 40,000)",
        )


def _refuse_marker_blocks(plan: Plan) -> None:
    """Refuses content that every reader would take for an unresolved merge conflict.

    Trigger: the text holds a conflict block (``format/conflicts.py``: ``<<<<<<<``,
    ``=======`` and ``>>>>>>>`` lines, in order; a git how-to, say). Why: ``parse_entry`` refuses such a file, so it would be written and then
    be unreadable. Outcome: nothing is written; the hint says how to keep the example.
    """
    for rel, data in plan.writes:
        line = conflict_line(data.decode("utf-8", "replace"))
        if line is not None:
            raise FormatError(
                f"line {line} of {rel} would open a merge-conflict block (<<<<<<< ======= "
                ">>>>>>> at line starts), which brv reads as an unresolved conflict",
                file=rel,
                key="content",
                hint="indent those marker lines by one space (or quote them in a code span), "
                "then run the operation again",
            )
