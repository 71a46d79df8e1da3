"""Text rendering of search, query, index and show results (no click: the fast path uses it)."""

from __future__ import annotations

from brv_vc.index.excerpt import shorten
from brv_vc.index.terms import stem

# typing costs ~5 ms to import and this module is on the cold search path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def search_text(result: Any) -> str:
    """``N. Title [NN%]`` / ``Path:`` / a short excerpt / ``Backlinks:`` (byterover §5.2)."""
    if not result.results:
        return f"No results for {result.query!r}."
    needles = [stem(t) for t in result.terms]
    lines = []
    if result.out_of_domain:
        lines.append("Note: this query appears to be outside the scope of stored knowledge.\n")
    for number, hit in enumerate(result.results, 1):
        mark = " [stale]" if hit.stale else ""  # its linked code changed since
        lines.append(f"{number}. {hit.title} [{round(hit.score * 100)}%]{mark}")
        lines.append(f"   Path: {hit.path}")
        lines.append(f"   {shorten(hit.excerpt, needles)}")
        if hit.backlinks:
            lines.append(f"   Backlinks: {', '.join(hit.backlinks[:5])}")
        lines.append("")
    if any(hit.stale for hit in result.results):
        lines.append("[stale]: the code the entry describes changed since it was written "
                     "(brv stale)")
    lanes = getattr(result, "lanes", ("lexical",))
    if "semantic" in lanes:  # said only when the lane is on: without it, output as before
        lines.append(f"Lanes: {' + '.join(lanes)}")
    return "\n".join(lines).rstrip()


def query_text(result: Any) -> str:
    """The answer, then one line: tier, time and top score."""
    lanes = getattr(result, "lanes", ("lexical",))
    shown = f" · lanes {' + '.join(lanes)}" if "semantic" in lanes else ""
    tail = (f"[tier {result.tier} · {result.duration_ms} ms · top score "
            f"{result.top_score:.2f}{shown}]")
    parts = [result.answer.rstrip()]
    if result.note:
        parts.append(f"Note: {result.note}")
    stale = [m.path for m in result.matched if getattr(m, "stale", False)]
    if stale:
        parts.append(f"Stale: {', '.join(stale)}: the code they describe changed since they "
                     "were written (brv stale)")
    parts.append(tail)
    return "\n\n".join(parts)


def index_text(result: Any) -> str:
    """A one-paragraph summary of ``brv index``."""
    noun = "file" if result.files == 1 else "files"
    lines = [
        f"Indexed {result.files} {noun} ({len(result.added)} added, {len(result.updated)} "
        f"updated, {len(result.removed)} removed)."
    ]
    if result.problems:
        lines.append(f"{len(result.problems)} file(s) could not be parsed and are not searchable:")
        lines += [f"  {problem.path}: {problem.message}" for problem in result.problems]
    return "\n".join(lines)
