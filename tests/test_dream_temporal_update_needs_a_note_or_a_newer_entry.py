"""An agent's TEMPORAL_UPDATE names the newer entry (a link), gives a note, or both (issue 37)."""

from __future__ import annotations

import json

import pytest

from brv_vc.errors import FormatError
from brv_vc.services.dream.decisions import load_decisions

BASE = {"operation": "consolidate", "action": "TEMPORAL_UPDATE", "file": "api/retry/policy.md",
        "reason": "revisited"}


def test_a_newer_entry_alone_is_a_whole_decision():
    ops = load_decisions(json.dumps([{**BASE, "newer": "api/retry/uploads.md"}]))
    assert ops[0]["newer"] == "api/retry/uploads.md"
    assert "note" not in ops[0]


def test_neither_a_note_nor_a_newer_entry_is_refused_by_name():
    with pytest.raises(FormatError, match=r"operations\[0\]\.note"):
        load_decisions(json.dumps([BASE]))


def test_a_newer_entry_must_be_an_entry_path():
    with pytest.raises(FormatError, match=r"operations\[0\]\.newer"):
        load_decisions(json.dumps([{**BASE, "newer": "../outside.md"}]))
