"""Text for ``brv dream`` results (``--json`` prints the results themselves)."""

from __future__ import annotations

from brv_vc.services import dream as svc

_STOPPED = {"budget": "the time budget ran out", "cancelled": "it was cancelled"}


def dream_text(r: svc.DreamResult) -> str:
    """Seed 001's report: ``Dream completed (drm-...)`` and the summary line."""
    if r.status == "skipped":
        assert r.gate is not None
        return f"Dream skipped: {r.gate.reason}"
    lines = [f"Dream {r.status} ({r.id})"]
    if r.stopped:
        lines[0] += f": stopped because {_STOPPED.get(r.stopped, r.stopped)}; finished work kept"
    lines.append(r.line)
    for op in r.operations:
        if op.get("status") in ("skipped", "waiting"):
            continue
        mark = " [review]" if op.get("needsReview") else ""
        lines.append(f"  {op['operation']:<11} {op['action']:<15} {op['message']}{mark}"
                     + (f" ({op['status']})" if op.get("status") == "failed" else ""))
    flagged = r.summary.get("flaggedForReview", 0)
    if flagged:
        lines.append(f"{flagged} operation{'s' if flagged != 1 else ''} flagged for review "
                     "(brv review pending; a group at once: brv review approve --dream "
                     f"{r.id})")
    if r.waiting:
        lines.append(f"{r.waiting} more proposal{'s' if r.waiting != 1 else ''} wait for the "
                     f"next dream (at most {r.max_proposals} a dream, most confident first: "
                     "dream.max_proposals or --max-proposals)")
    lines.append("undo with: brv dream --undo")
    return "\n".join(lines)


def undo_text(r: svc.UndoResult) -> str:
    """What ``--undo`` put back."""
    lines = [f"Dream {r.id} undone: {len(r.restored)} file(s) restored"]
    lines.extend(f"  {path}" for path in r.restored)
    if r.rejected:
        lines.append(f"review entries rejected: {', '.join(map(str, r.rejected))}")
    return "\n".join(lines)


def logs_text(r: svc.DreamLogs) -> str:
    """The dream list, or one dream's operations."""
    state = r.state
    head = (f"dreams: {state['totalDreams']}, last: {state['lastDreamAt'] or 'never'}, "
            f"curations since: {state['curationsSinceDream']}, pending merges: "
            f"{len(state['pendingMerges'])}")
    if not r.detail:
        rows = [f"  {log['id']}  {log.get('status', '?'):<10} {log.get('startedAt', '')}  "
                f"{svc_line(log)}" for log in r.logs]
        return "\n".join([head, *rows] if rows else [head, "  no dream yet"])
    log = r.logs[0]
    lines = [f"{log['id']}  {log.get('status')}  started {log.get('startedAt')}  "
             f"({log.get('trigger', '')})", svc_line(log)]
    for op in log.get("operations", []):
        lines.append(f"  {op.get('status', ''):<8} {op['operation']:<11} {op['action']:<15} "
                     f"{op.get('message', '')}")
        if op.get("reason"):
            lines.append(f"           reason: {op['reason']}")
    skipped = log.get("skipped")
    if skipped:
        lines.append(f"  {skipped} SKIP decision{'s' if skipped != 1 else ''}: nothing to change "
                     f"(each with its reason in .brv/state/dream-log/{log['id']}.json)")
    return "\n".join(lines)


def svc_line(log: dict[str, object]) -> str:
    """The summary line of a log."""
    summary = log.get("summary")
    return svc.summary_line(summary if isinstance(summary, dict) else {})


def scan_text(r: svc.ScanResult) -> str:
    """One line per candidate (agents read --json)."""
    cut = (["(the time budget ran out: the candidates found so far; scan again after a "
            "dream for the next)"] if r.stopped == "budget" else [])
    if not r.candidates:
        return "\n".join(["no dream candidates", *cut])
    lines = cut
    for c in r.candidates:
        op = c["suggested"]
        lines.append(f"  {c['candidate']:>3}  {op['operation']:<11} suggests {op['action']:<15} "
                     f"{op.get('reason', '')}")
    lines.append("decide with: brv dream scan --json, then brv dream apply FILE")
    return "\n".join(lines)
