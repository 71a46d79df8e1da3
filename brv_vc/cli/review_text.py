"""Text of ``brv review pending`` (no click: the fast path uses it)."""

from __future__ import annotations

# typing costs ~5 ms to import and this module is on the cold listing path
TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.services.review import ReviewList


def pending_text(r: ReviewList) -> str:
    """Seed 001's lines (``[dream/consolidate] Merged a and b — reason``), each with its files."""
    lines = [] if r.enabled else ["review is disabled (brv review --enable turns it on)"]
    if not r.entries:
        return "\n".join([*lines, "no pending review entries"])
    pending = sum(e.status == "pending" for e in r.entries)
    lines.append(f"{pending} pending review entr{'y' if pending == 1 else 'ies'}:")
    for e in r.entries:
        status = "" if e.status == "pending" else f" ({e.status})"
        lines.append(f"  {e.id:>4}  {e.line()}{status}")
        lines.append(f"        {', '.join(e.paths)}")
    lines.append("see one: brv review show ID; decide: brv review approve|reject ID...")
    return "\n".join(lines)
