"""A dream's log and its --json answer are written as they are encoded, never held whole.

Issue 37: a first dream at 100,000 entries ends with 100,000 operations (mostly SKIPs); its
log written as one string, then its bytes, and its answer built the same way took the
process from ~260 MB to over 400 MB in its last seconds. The text is the same as before
(``json.dumps(..., indent=2)``), and the memory it takes to write stays a small part of it.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Callable

from dream_support import add

from brv_vc.services.dream import dreamlog

OPS = 20_000


def _log() -> dict[str, object]:
    ops = [{"operation": "consolidate", "action": "SKIP", "files": [f"d/t/entry_{i}.md"],
            "reason": "no entry at least 0.5 similar needs a change — é", "status": "skipped",
            "message": f"Skipped d/t/entry_{i}.md", "changes": []} for i in range(OPS)]
    return {"id": "drm-1", "status": "completed", "operations": ops, "summary": {"pruned": 0}}


def test_the_log_is_the_same_text_written_in_pieces(project) -> None:
    log = _log()
    tracemalloc.start()
    try:
        dreamlog.write(project, log)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    written = (dreamlog.folder(project) / "drm-1.json").read_bytes()
    assert written == (json.dumps(log, indent=2, ensure_ascii=False) + "\n").encode()
    assert len(written) > 4_000_000
    assert peak < len(written) / 4  # as one string and its bytes: over twice its size
    assert dreamlog.read(project, "drm-1") == log


def _journal(project, count: int, first: str = "SKIP") -> tuple[dict[str, object], list]:
    """A running dream's log and its journal of ``count`` operations (the first ``first``)."""
    log = _log()
    ops = log.pop("operations")[:count]  # type: ignore[index]
    ops[0] = {**ops[0], "action": first}
    dreamlog.write(project, {**log, "status": "processing", "journal": True})
    dreamlog.append(project, "drm-1", *ops, durable=False)
    return log, ops


def _peak(step: Callable[[], object]) -> tuple[object, int]:
    """What ``step`` returns, and the most memory Python held while it ran."""
    tracemalloc.start()
    try:
        done = step()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return done, peak


def _closed(project, count: int) -> tuple[bytes, dict[str, object], int]:
    """A log closed from a journal of ``count`` SKIPs: its bytes, the whole log, the peak."""
    log, ops = _journal(project, count)
    _, peak = _peak(lambda: dreamlog.close(project, log))
    assert not (dreamlog.folder(project) / "drm-1.ops.jsonl").exists()
    written = (dreamlog.folder(project) / "drm-1.json").read_bytes()
    return written, {**log, "operations": ops}, peak  # the operations last


def test_a_closed_log_streams_its_operations_from_the_journal(project) -> None:
    written, whole, peak = _closed(project, OPS)
    assert written == (json.dumps(whole, indent=2, ensure_ascii=False) + "\n").encode()
    assert dreamlog.read(project, "drm-1") == whole
    _, _, small = _closed(project, OPS // 4)
    assert peak < small * 1.5  # one operation at a time: four times the log, the same peak


def _settled(project, count: int) -> tuple[dict[str, object], int]:
    """A killed dream's log settled by the next dream, ``count`` SKIPs in its journal."""
    _journal(project, count)
    _, peak = _peak(lambda: dreamlog.settle_killed(project, "drm-1"))
    return dreamlog.read(project, "drm-1"), peak


def test_a_killed_dreams_journal_is_settled_one_operation_at_a_time(project) -> None:
    settled, peak = _settled(project, OPS)
    assert settled["status"] == "error"  # killed before it applied anything
    assert len(settled["operations"]) == OPS  # type: ignore[arg-type]
    assert not (dreamlog.folder(project) / "drm-1.ops.jsonl").exists()
    _, small = _settled(project, OPS // 4)
    assert peak < small * 1.5  # four times the journal, the same peak


def test_a_closed_log_without_operations_is_whole_too(project) -> None:
    log = {"id": "drm-2", "status": "completed", "summary": {}}
    dreamlog.write(project, {**log, "journal": True})
    dreamlog.close(project, log)
    written = (dreamlog.folder(project) / "drm-2.json").read_text()
    assert written == json.dumps({**log, "operations": []}, indent=2) + "\n"


def test_the_json_answer_of_a_dream_is_whole_and_versioned(project, brv) -> None:
    for n in range(3):
        add(project, f"notes/n{n}", f"Note {n}", f"Text of note {n} about fax machines.")
    answer = brv("dream", "--force", "--json", cwd=project.root)
    data = answer.json()
    assert list(data)[:3] == ["ok", "version", "status"]
    assert data["ok"] is True
    assert data["status"] == "completed"
    assert data["operations"]
    assert all(op["status"] in ("applied", "skipped") for op in data["operations"])
    assert answer.stdout.endswith("}\n")


def _read_lean(project, count: int, listed: bool) -> tuple[dict[str, object], int]:
    log, _ = _journal(project, count, first="CROSS_REFERENCE")  # one that did something
    dreamlog.close(project, log)
    read, peak = _peak(lambda: dreamlog.lean(project, "drm-1", listed=listed))
    return read, peak  # type: ignore[return-value]


def test_a_big_log_is_read_for_people_one_operation_at_a_time(project) -> None:
    read, peak = _read_lean(project, OPS, listed=True)
    assert read["skipped"] == OPS - 1
    assert [op["action"] for op in read["operations"]] == ["CROSS_REFERENCE"]  # type: ignore[index]
    assert read["summary"] == {"pruned": 0}  # the head, as written
    _, small = _read_lean(project, OPS // 4, listed=True)
    assert peak < small * 1.5  # four times the log, the same peak
    counted, _ = _read_lean(project, OPS, listed=False)
    assert counted["operationCount"] == OPS
    assert "operations" not in counted


def test_a_log_of_another_shape_is_read_whole(project) -> None:
    log = _log()
    (dreamlog.folder(project)).mkdir(parents=True, exist_ok=True)
    (dreamlog.folder(project) / "drm-1.json").write_text(json.dumps(log))  # one line
    read = dreamlog.lean(project, "drm-1")
    assert read["skipped"] == OPS
    assert read["operations"] == []
    assert dreamlog.lean(project, "drm-1", listed=False)["operationCount"] == OPS
