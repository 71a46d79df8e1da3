"""Dream logs: ``.brv/state/dream-log/drm-<ms>.json``, one per dream (seed 001 "Dream Logs").

A log is written when the dream starts (status ``processing``, ``"journal": true``); each
finished operation is then appended as one line to its journal ``drm-<ms>.ops.jsonl``, and
the final write (:func:`close`) streams the journal's operations into the log and deletes the
journal: the dream holds no SKIP record in memory (at 100,000 entries a first dream's
~100,000 of them took it over its 300 MB budget, issue 37). A dream killed
at any moment so leaves a log of the work it did (:func:`read` joins the journal); the next
dream marks such a log ``partial`` or ``error`` (:func:`cut_short`). Each operation
keeps its file changes (backup hashes in the dream's own store) for ``--undo``.

Why a journal: writing the whole log again after each operation is quadratic; 500 changed
entries of a 25,000-entry tree took 9 s of JSON for 500 operations.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from brv_vc.errors import NotFoundError
from brv_vc.scrub import scrub_values
from brv_vc.services.review import BlobStore
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import ensure_state_dir
from brv_vc.tree.store import write_atomic

LOG_DIR = "dream-log"
PROCESSING, COMPLETED, PARTIAL, ERROR, UNDONE = (
    "processing", "completed", "partial", "error", "undone")
JOURNAL = "journal"  # the log's key while its operations are in the journal
# the words of a log and its operations (an agent's reasons, a provider's or git's errors):
# scrubbed of credentials (brv_vc.scrub) when written; paths and hashes, which --undo
# follows, are kept as they are
_WORDS = ("reason", "message", "note", "notes", "error", "title", "summary", "content")


def _scrubbed(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with its words scrubbed; the same objects where none held a credential.

    Why: a first dream's log holds 100,000 operations, and copying each one to scrub it
    would undo what ``encoded`` saves (issue 37's memory budget).
    """
    found = {}
    for key in _WORDS:
        if key in record and (value := scrub_values(record[key])) != record[key]:
            found[key] = value
    if "operations" in record:
        ops = [_scrubbed(op) for op in record["operations"]]
        if any(new is not old for new, old in zip(ops, record["operations"], strict=True)):
            found["operations"] = ops
    return {**record, **found} if found else record


def folder(project: Project) -> Path:
    """``.brv/state/dream-log/``."""
    return project.state / LOG_DIR


def store(project: Project) -> BlobStore:
    """The dream's own backups (kept for the last dream's undo, whatever review decides)."""
    return BlobStore(folder(project) / "backups")


def _journal(project: Project, dream_id: str) -> Path:
    return folder(project) / f"{dream_id}.ops.jsonl"


def write(project: Project, log: dict[str, Any]) -> None:
    """Writes a log atomically.

    A log that says ``"journal": true`` must hold no operation (the journal has them); any
    other log is whole, and its journal, if one is left, is deleted after the write.
    """
    ensure_state_dir(project.state)
    write_atomic(folder(project) / f"{log['id']}.json", encoded(_scrubbed(log)))
    if not log.get(JOURNAL):
        _journal(project, str(log["id"])).unlink(missing_ok=True)


def encoded(document: Any, batch: int = 8192) -> Iterator[bytes]:
    """``json.dumps(document, indent=2, ensure_ascii=False)`` and a newline, in pieces.

    Why (issue 37): the log of a first dream at 100,000 entries holds 100,000 operations;
    as one string, then its bytes, it took the dream from ~260 MB to over 400 MB in its
    last second. The same text, encoded as it is written.
    """
    pieces: list[str] = []
    for piece in json.JSONEncoder(indent=2, ensure_ascii=False).iterencode(document):
        pieces.append(piece)
        if len(pieces) == batch:
            yield "".join(pieces).encode("utf-8")
            pieces.clear()
    yield ("".join(pieces) + "\n").encode("utf-8")


def append(project: Project, dream_id: str, *ops: dict[str, Any], durable: bool) -> None:
    """Adds finished operations to a running dream's journal (one line each).

    ``durable``: flush them to disk (an operation that changed files: ``--undo`` needs it
    even after a power cut; a skipped one is only a record).
    """
    lines = "".join(json.dumps(_scrubbed(op), ensure_ascii=False, separators=(",", ":"))
                    + "\n" for op in ops)
    with _journal(project, dream_id).open("a", encoding="utf-8") as handle:
        handle.write(lines)
        if durable:
            handle.flush()
            os.fsync(handle.fileno())


def ids(project: Project) -> list[str]:
    """Every dream id, oldest first (ids are ``drm-<ms>``, so they sort by time)."""
    names = [p.stem for p in folder(project).glob("drm-*.json")]
    return sorted(names, key=lambda n: (len(n), n))


def read(project: Project, dream_id: str) -> dict[str, Any]:
    """One log, its journal's operations joined.

    Raises:
        NotFoundError: no such dream.
    """
    data = _file(project, dream_id)
    if data.pop(JOURNAL, False):
        data["operations"] = [*data.get("operations", []), *_journaled(project, dream_id)]
    return data


def lean(project: Project, dream_id: str, *, listed: bool = True) -> dict[str, Any]:
    """One log as people and agents read it: its SKIPs counted (``skipped``), not listed.

    The operations are read one at a time; ``listed=False`` parses none of them and gives
    only their number (``operationCount``), for the list of dreams. Why: a first dream's log
    at 100,000 entries is 39 MB of JSON, ~100,000 SKIPs; parsed whole it took ~350 MB and
    its answer 44 MB (issue 37). A log of another shape than brv writes is read whole.

    Raises:
        NotFoundError: no such dream, or an unreadable log.
    """
    kept: list[dict[str, Any]] = []
    counts = {"operations": 0, "skips": 0}

    def take(op: dict[str, Any]) -> None:
        counts["operations"] += 1
        if is_skip(op):
            counts["skips"] += 1
        else:
            kept.append(op)

    log = _file_lean(project, dream_id, take if listed else None, counts)
    if log is None:  # another shape than brv writes (a hand-made log): read whole
        kept.clear()
        counts.update(operations=0, skips=0)
        log = _file(project, dream_id)
    inline = log.pop("operations", [])
    for op in inline if isinstance(inline, list) else []:
        if isinstance(op, dict):
            take(op)
    if log.pop(JOURNAL, False):
        for op in _journaled(project, dream_id):
            take(op)
    if not listed:
        return {**log, "operationCount": counts["operations"]}
    return {**log, "operations": kept, "skipped": counts["skips"]}


_OPS_START, _OP_END = '  "operations": [\n', ("    }", "    },")


def _file_lean(project: Project, dream_id: str, take: Any,
               counts: dict[str, int]) -> dict[str, Any] | None:
    """The log file, its indented ``operations`` left out and each handed to ``take``.

    ``take`` None: each is only counted. None: the file has another shape than brv writes.
    """
    path = folder(project) / f"{dream_id}.json"
    head: list[str] = []
    item: list[str] = []
    inside = False
    try:
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                if not inside:
                    inside = line == _OPS_START
                    head.append(line if not inside else "")
                elif line.rstrip() in ("  ]", "  ],"):
                    inside = False
                    head.append('  "operations": []' + line.rstrip()[3:] + "\n")
                elif take is None:
                    counts["operations"] += line.rstrip() in _OP_END
                else:
                    item.append(line)
                    if line.rstrip() in _OP_END:
                        take(json.loads("".join(item).rstrip().rstrip(",")))
                        item.clear()
        data = json.loads("".join(head))
    except OSError:
        raise NotFoundError(f"no dream log {dream_id}",
                            hint="list the dreams with 'brv dream --log'") from None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def cut_short(ops: Iterable[dict[str, Any]], saved: bool, skipped: int = 0) -> str:
    """The status of a dream that ended early: ``partial`` if it left work, else ``error``.

    The one rule for a dream its budget stopped and for one killed mid-way (settled by the
    next dream).

    Work left behind is an operation applied, or, when the dream ``saved`` its cursor (it
    stopped itself and wrote its state), a decision to change nothing (a SKIP: ``skipped``
    counted, or a SKIP operation among ``ops``), since the saved cursor has moved past it. A
    killed dream saved nothing: its SKIPs are lost with it, and the next dream decides them
    again.
    """
    if saved and skipped:
        return PARTIAL
    done = ("applied", "skipped") if saved else ("applied",)
    return PARTIAL if any(op.get("status") in done for op in ops) else ERROR


def settle_killed(project: Project, dream_id: str) -> None:
    """Marks the log of a dream killed mid-way ``partial``, or ``error`` when it applied nothing.

    The rule is :func:`cut_short`'s (a killed dream saved no cursor).

    A log whose operations are in its journal (every log brv writes while it dreams) is closed
    from the journal, one operation at a time: a first dream killed at 100,000 entries leaves
    ~100,000 of them, and the next dream is within its 300 MB budget too.

    Raises:
        NotFoundError: no such dream, or an unreadable log.
    """
    log = _file(project, dream_id)
    journaled = log.pop(JOURNAL, False)
    ops = _journaled(project, dream_id) if journaled else iter(log.get("operations", []))
    log["status"] = cut_short(ops, saved=False)
    log["note"] = "the dream process ended before finishing (killed)"
    if journaled:
        close(project, log)
    else:
        write(project, log)


def _file(project: Project, dream_id: str) -> dict[str, Any]:
    """The log file as it is (a running dream's: its operations in the journal)."""
    try:
        data = json.loads((folder(project) / f"{dream_id}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise NotFoundError(f"no dream log {dream_id}",
                            hint="list the dreams with 'brv dream --log'") from None
    if not isinstance(data, dict):
        raise NotFoundError(f"dream log {dream_id} is unreadable", file=f"{LOG_DIR}/{dream_id}.json")
    return data


def _journaled(project: Project, dream_id: str) -> Iterator[dict[str, Any]]:
    """The journal's operations, one line at a time; a line cut short by a kill is left out."""
    try:
        handle = _journal(project, dream_id).open(encoding="utf-8")
    except OSError:
        return
    with handle:
        for line in handle:
            try:
                op = json.loads(line)
            except ValueError:
                continue
            if isinstance(op, dict):
                yield op


def close(project: Project, log: dict[str, Any]) -> None:
    """Writes a dream's whole log from ``log`` and its journal, then deletes the journal.

    The text is :func:`write`'s with the operations last: ``log`` without its operations, then
    every operation of the journal in order (``log["operations"]``, if any, is ignored: the
    journal has each). Why: the run so keeps only the operations that did something; the
    SKIPs are read back one at a time.
    """
    head = _scrubbed({k: v for k, v in log.items() if k not in ("operations", JOURNAL)})
    ensure_state_dir(project.state)
    write_atomic(folder(project) / f"{log['id']}.json",
                 _with_operations(head, _journaled(project, str(log["id"]))))
    _journal(project, str(log["id"])).unlink(missing_ok=True)


def _with_operations(head: dict[str, Any], ops: Iterator[dict[str, Any]],
                     batch: int = 1024) -> Iterator[bytes]:
    """``encoded({**head, "operations": [*ops]})``, the operations encoded as they come."""
    start, end = json.dumps({**head, "operations": []}, indent=2,
                            ensure_ascii=False).rsplit('"operations": []', 1)
    pieces = [start, '"operations": [']
    count = 0
    for op in ops:  # a string holds no raw newline: each line of an op moves in as one
        text = json.dumps(op, indent=2, ensure_ascii=False).replace("\n", "\n    ")
        pieces.append(("," if count else "") + "\n    " + text)
        count += 1
        if len(pieces) >= batch:
            yield "".join(pieces).encode("utf-8")
            pieces.clear()
    pieces.append(("\n  ]" if count else "]") + end + "\n")
    yield "".join(pieces).encode("utf-8")


_STATUS = re.compile(rb'\n  "status": "([a-z]+)"')  # the log's own key: ops' are indented more
_BIG = 1 << 20  # bytes: a log this big is brv's own, written indented, its status first


def status(project: Project, dream_id: str) -> str | None:
    """A log's own status (None: unreadable); a big log's from its head, no operation parsed.

    Why: every dream asks each earlier log whether its dream was killed, and a first
    dream's log at 100,000 entries is 39 MB of JSON (issue 37's memory budget).
    """
    path = folder(project) / f"{dream_id}.json"
    try:
        if path.stat().st_size > _BIG:
            with path.open("rb") as handle:
                if found := _STATUS.search(handle.read(65536)):
                    return found.group(1).decode()
        data = json.loads(path.read_bytes())
    except (OSError, ValueError):
        return None
    found = data.get("status") if isinstance(data, dict) else None
    return found if isinstance(found, str) else None


def is_skip(op: dict[str, Any]) -> bool:
    """A decision to change nothing: counted (``skipped``), never listed, where a log is read."""
    return op.get("action") == "SKIP" and op.get("status") == "skipped"


def summary_line(summary: dict[str, Any]) -> str:
    """``3 consolidated | 1 synthesized | 2 pruned`` (seed 001)."""
    return (f"{summary.get('consolidated', 0)} consolidated | "
            f"{summary.get('synthesized', 0)} synthesized | {summary.get('pruned', 0)} pruned")
