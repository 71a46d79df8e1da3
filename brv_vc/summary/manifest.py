"""``_manifest.json``: a token-budgeted registry of the tree in three lanes (seed 000).

- ``summaries``: every ``_index.md``, broadest first (condensation order 3 -> 0), 2,000 tokens;
- ``contexts``: entries by importance (the scoring sidecar, decayed; 50 without a row),
  4,000 tokens, each costed by its ``.abstract.md`` sibling when there is one;
- ``stubs``: archive ghost cues in insertion (eviction) order, 500 tokens.

Freshness is a cheap hash of folder mtimes and file names (:mod:`brv_vc.summary.scan`; ByteRover
hashes ``path:mtime:size``), kept with the hash of the bytes written in ``derived_files``
(mtimes are per machine, so they stay out of the file: the bytes depend only on the tree
and the sidecar). A stale, missing
or hand-edited manifest is rebuilt.
"""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import datetime

from brv_vc.format.tokens import count_tokens
from brv_vc.lifecycle import scoring, sidecar
from brv_vc.record import NamedTuple
from brv_vc.summary.abstracts import siblings
from brv_vc.summary.records import Records
from brv_vc.summary.scan import Scan, scan
from brv_vc.tree.layout import MANIFEST_FILE
from brv_vc.tree.project import Project

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

BUDGETS = {"summaries": 2000, "contexts": 4000, "stubs": 500}
MISSES_BEFORE_STOP = 64  # a lane stops scanning after this many items in a row do not fit
_EVICTED = re.compile(r'^evicted_at: "([^"]*)"$', re.MULTILINE)


class ManifestResult(NamedTuple):
    """The manifest, whether it was rebuilt, and why."""

    manifest: dict[str, Any]
    rebuilt: bool
    warnings: tuple[str, ...] = ()


def _tokens(project: Project, rel: str) -> int:
    return count_tokens((project.tree / rel).read_text(encoding="utf-8", errors="replace"))


def _fill(rows: list[dict[str, Any]], budget: int, cost: Any) -> tuple[list[dict[str, Any]], int]:
    chosen: list[dict[str, Any]] = []
    used = misses = 0
    for row in rows:
        try:
            tokens = cost(row)
        except OSError:
            continue
        if used + tokens <= budget:
            chosen.append({**row, "tokens": tokens})
            used += tokens
            misses = 0
        else:
            misses += 1
            if misses >= MISSES_BEFORE_STOP or budget - used <= 0:
                break
    return chosen, used


def build(
    project: Project, conn: sqlite3.Connection, now: datetime, found: Scan | None = None
) -> dict[str, Any]:
    """Builds the manifest (does not write it); ``found`` saves a second scan."""
    found = scan(project) if found is None else found
    moment = now.timestamp()
    summaries: list[dict[str, Any]] = [
        {"path": p, "condensation_order": 3 - p.count("/")}
        for p in sorted(found.summaries, key=lambda p: (p.count("/"), p))
    ]
    entries = found.entries
    stored = sidecar.get_many(conn, entries)
    importance = {
        p: round(scoring.at(stored[p], moment).importance, 1) if p in stored else
        scoring.DEFAULT_IMPORTANCE
        for p in entries
    }
    contexts = []
    for p in sorted(entries, key=lambda p: (-importance[p], p)):
        abstract_rel = siblings(p)[0]
        read = abstract_rel if abstract_rel in found.abstracts else p
        contexts.append({"path": p, "read": read, "importance": importance[p]})
    stubs = []
    for p in found.stubs:
        head = (project.tree / p).read_text(encoding="utf-8", errors="replace")[:600]
        match = _EVICTED.search(head)
        stubs.append({"path": p, "evicted_at": match.group(1) if match else ""})
    stubs.sort(key=lambda r: (r["evicted_at"], r["path"]))
    lanes: dict[str, Any] = {}
    totals: dict[str, int] = {}
    omitted: dict[str, int] = {}
    for name, rows, key in (
        ("summaries", summaries, "path"),
        ("contexts", contexts, "read"),
        ("stubs", stubs, "path"),
    ):
        chosen, used = _fill(rows, BUDGETS[name], lambda r, k=key: _tokens(project, r[k]))
        lanes[name], totals[name], omitted[name] = chosen, used, len(rows) - len(chosen)
    return {
        "version": 1,
        "budgets": BUDGETS,
        **lanes,
        "totals": totals,
        "omitted": omitted,
    }


def render(manifest: dict[str, Any]) -> bytes:
    """The manifest's canonical bytes (sorted keys are NOT used: lanes keep seed order)."""
    return (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def ensure(
    project: Project, conn: sqlite3.Connection, now: datetime, *, force: bool = False
) -> ManifestResult:
    """Returns the manifest, rebuilding and writing it first when stale, missing or edited.

    Args:
        project: the project.
        conn: ``brv.db`` (sidecar and derived-file records).
        now: the clock (importance decays to it).
        force: rebuild even when fresh.
    """
    records = Records(conn)
    target = project.tree / MANIFEST_FILE
    warnings: list[str] = []
    try:
        existing: bytes | None = target.read_bytes()
    except FileNotFoundError:
        existing = None
    found = scan(project)
    stamp = found.freshness
    suspect = existing is not None and records.edited(MANIFEST_FILE, target, existing)
    record = records.get(MANIFEST_FILE)
    fresh = record is not None and record.input_hash == stamp
    if existing is not None and fresh and not suspect and not force:
        try:
            loaded = json.loads(existing)
        except ValueError:
            loaded = None
        if isinstance(loaded, dict):
            _importance_now(loaded, conn, now)
            return ManifestResult(loaded, False, ())
    manifest = build(project, conn, now, found)
    data = render(manifest)
    # bytes brv would write now are no hand edit (a run killed before its record)
    if suspect and data != existing:
        warnings.append(f"{MANIFEST_FILE} was edited by hand; rebuilt (it is a derived file)")
    records.write(target, MANIFEST_FILE, stamp, data)
    return ManifestResult(manifest, True, tuple(warnings))


def _importance_now(manifest: dict[str, Any], conn: sqlite3.Connection, now: datetime) -> None:
    """Sets each context row's ``importance`` to its value now (in place).

    Trigger: a manifest still fresh for its files (no entry changed) is returned as written.
    Why: its importance figures date from when it was built, while search hits and decay
    move them; ``brv show``, ``brv brain`` and the manifest must print one figure per entry.
    Outcome: the figures are current; the lane (chosen when the files last changed) is kept.
    """
    rows = [r for r in manifest.get("contexts", []) if isinstance(r, dict) and "path" in r]
    stored = sidecar.get_many(conn, [str(r["path"]) for r in rows])
    moment = now.timestamp()
    for row in rows:
        signals = stored.get(str(row["path"]))
        row["importance"] = (round(scoring.at(signals, moment).importance, 1)
                             if signals is not None else scoring.DEFAULT_IMPORTANCE)
