"""A dream's SKIP records ("no entry ... needs a change") share one reason string: a whole
first pass at 100,000 entries keeps ~100,000 of them to the end (its log and its answer),
and a copy of the reason each took ~9 MB of the 300 MB budget (issue 37)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from hooks_support import entry_bytes, in_project, write

from brv_vc.services import dream
from brv_vc.services.dream.consolidate import NOTHING_ALIKE

SUBJECTS = ("Kafka consumer lag alerts", "Postgres vacuum schedule", "Terraform state locking",
            "Nginx rate limiting", "Redis eviction policy")


def test_the_skips_of_a_first_dream_hold_one_reason(tmp_path: Path) -> None:
    project = in_project(tmp_path)
    for n, title in enumerate(SUBJECTS):
        write(project.tree, f"ops/topic{n}/note{n}.md",
              entry_bytes(title, f"## Narrative\n\n{title} note {n}: words of its own {n}.\n"))
    result = dream.dream(project, datetime(2026, 3, 1, tzinfo=UTC), force=True)
    skips = [op for op in result.operations if op["action"] == "SKIP"]
    assert len(skips) >= len(SUBJECTS)  # and the entry in_project writes
    assert all(op["reason"] == NOTHING_ALIKE for op in skips)
    assert len({id(op["reason"]) for op in skips}) == 1  # before: one copy a record
