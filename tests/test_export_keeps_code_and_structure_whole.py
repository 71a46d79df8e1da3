"""Exports never cut an entry's code or structure into a bullet, and each chosen entry comes
with its key facts, not only its title, on a large tree (issue 38 item 6).

Before: 500 entries with code fences, tables and lists gave a CLAUDE.md of 58 titles, the
first of them followed by ``  - {`` and ``  - "retries": 0`` (the lines of a JSON block).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from brv_vc.format.tokens import count_tokens
from brv_vc.services.brain.exports import TARGETS
from brv_vc.services.curate import run_batch
from brv_vc.tree.project import Project

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _content(i: int) -> str:
    return (
        f"```json\n{{\n  \"service\": \"svc{i}\",\n  \"retries\": {i % 5}\n}}\n```\n\n"
        f"| key | value |\n|---|---|\n| port | {8000 + i} |\n\n"
        f"Service {i} restarts its workers after {i % 9 + 1} failures. It logs to the sink.\n\n"
        f"- Step one for part {i}\n- Step two for part {i}\n"
        # a fence left open runs to the end (it would swallow the Facts section)
        + ("\n```python\nif retries > 3:\n    raise Stop()\n" if i % 5 else "")
    )


@pytest.fixture
def big_tree(project: Project) -> Project:
    ops = [{"type": "ADD", "path": f"area{i % 10}/topic{i % 7}", "title": f"Service {i:03d}",
            "content": _content(i), "reason": "t"} for i in range(500)]
    for i in range(0, 500, 5):  # every fifth carries facts: they come first
        ops[i]["facts"] = [{"statement": f"Service {i} listens on port {8000 + i}"}]
    assert run_batch(project, ops, NOW).ok
    return project


def _block(text: str) -> str:
    return text[text.index("<!-- brv:begin"):text.index("<!-- brv:end -->")]


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_each_chosen_entry_carries_its_key_facts_and_no_code(
        big_tree: Project, brv, target: str) -> None:
    assert brv("export", target, cwd=big_tree.root).exit_code == 0
    block = _block((big_tree.root / TARGETS[target]).read_text())
    lines = block.splitlines()
    entries = [n for n, line in enumerate(lines) if line.startswith("- Service ")]
    assert len(entries) >= 8
    for n in entries:
        points = []
        for line in lines[n + 1:]:
            if not line.startswith("  - "):
                break
            points.append(line[4:])
        assert points, f"{lines[n]} came without its knowledge"
        number = re.match(r"- Service (\d+)", lines[n]).group(1)  # type: ignore[union-attr]
        for point in points:
            # prose or a fact of this entry, never a line of its code or of its table
            assert not re.search(r"[{}|`\"]|retries >|raise Stop|port \|", point), point
            assert str(int(number)) in point, point
        if int(number) % 5 == 0:  # its facts come first
            assert points[0] == f"Service {int(number)} listens on port {8000 + int(number)}"
    assert count_tokens(block) <= 1000

