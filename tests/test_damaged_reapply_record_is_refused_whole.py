"""A killed post-merge hook's record that is damaged is refused whole: nothing is done by it.

Left by the kill-safe fold: the roll-forward read the record as it went, step after step, and
one ``except (ValueError, KeyError, TypeError)`` around it all removed the record on the
first such error, wherever it came (a step already taken, the rest never). Nor was a step's
path checked: a record could fold an entry into itself, write a time that is no time into a
target, or remove a file outside the tree. The record's whole shape is now checked first,
alone (services/vc/rolled_forward.py ``checked``); a damaged one is removed and named, the
pull left as plain git left it (nothing is lost), and only errors of the shape are read so.
A real plain ``git pull`` runs brv's hooks, in-project, killed once its record is written.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_brv
from hooks_support import git, git_env
from written_back_support import D, P, T, brv_ok, change, origin_and_clone

INCOMING = "zebrafish cutover closes on Fridays."  # the teammate's change of P and D
OUTSIDE = "../outside.md"  # .brv/outside.md: a file of the project, not of the tree


def _damage(how: str, data: dict[str, Any], clone: Path) -> None:
    steps = {step["source"]: step for step in data["folds"]}
    if how == "a time that is no time":
        data["stamp"] = "yesterday"
    elif how == "an entry folded into itself":
        steps[P]["target"] = P
    else:  # a step outside the tree, its hash right
        outside = clone / ".brv/outside.md"
        outside.write_text("kept\n")
        steps[D]["source"] = OUTSIDE
        steps[D]["hash"] = hashlib.sha256(outside.read_bytes()).hexdigest()


@pytest.mark.parametrize("how", ["a time that is no time", "an entry folded into itself",
                                 "a step outside the tree"])
def test_a_damaged_record_changes_nothing(tmp_path: Path, how: str) -> None:
    origin, clone = origin_and_clone(tmp_path)
    brv_ok(clone.root, "curate", "merge", P, "--into", T, "--reason", "duplicates")
    brv_ok(clone.root, "curate", "delete", D, "--reason", "obsolete")
    change(origin, P, D)
    git("pull", "-q", "--no-rebase", cwd=clone.root,
        env=git_env(BRV_FAULT_AT="reapply-recorded"))
    (clone.root / ".git/index.lock").unlink()  # the killed hook's, as git's advice says
    [record] = (clone.root / ".brv/state/pending").glob("reapply-*.json")
    data = json.loads(record.read_text())
    _damage(how, data, clone.root)
    record.write_text(json.dumps(data))
    before = {rel: (clone.tree / rel).read_bytes() for rel in (P, D, T)}

    found = run_brv("search", "zebrafish cutover", cwd=clone.root)

    assert found.exit_code == 0, found
    assert f"a damaged record {record.name} was removed, nothing done" in found.stderr, (
        found.stderr)
    assert not record.exists()
    assert {rel: (clone.tree / rel).read_bytes() for rel in (P, D, T)} == before
    assert INCOMING in (clone.tree / P).read_text()  # back, as plain git left it
    if how == "a step outside the tree":
        assert (clone.root / ".brv/outside.md").read_text() == "kept\n"
