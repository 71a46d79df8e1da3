"""brv dream --undo: everything the last dream touched comes back byte for byte, or nothing."""

from __future__ import annotations

import contextlib
import json
import shutil
from datetime import timedelta

from dream_support import NOW, OAUTH, add, age, duplicate_pair, tree_bytes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.errors import ConflictError
from brv_vc.services import dream, review
from brv_vc.services.dream import dreamlog
from brv_vc.services.init import init_project
from brv_vc.tree import dreamstate
from brv_vc.tree.project import Project


def _busy_tree(project):
    duplicate_pair(project)
    add(project, "security/tokens", "Token storage", OAUTH + " Stored encrypted at rest.")
    stale = add(project, "notes/old", "Fax machines", "Fax machines need paper.")
    age(project, stale, 61)
    return stale


def test_undo_restores_every_file_and_the_state(project, brv):
    brv("review", "--enable", cwd=project.root)
    _busy_tree(project)
    before = tree_bytes(project.root)
    state = dreamstate.read_state(project)
    result = dream.dream(project, NOW, force=True)
    assert {op["action"] for op in result.operations} >= {"MERGE", "CREATE", "ARCHIVE"}
    assert tree_bytes(project.root) != before
    undone = brv("dream", "--undo", "--json", cwd=project.root).json()
    assert undone["id"] == result.id
    assert tree_bytes(project.root) == before
    assert not (project.tree / "_archived").exists() or not list(
        (project.tree / "_archived").rglob("*.md"))
    after = dreamstate.read_state(project)
    assert after["totalDreams"] == state["totalDreams"]
    assert after["curationsSinceDream"] == state["curationsSinceDream"]
    assert after["lastDreamAt"] is None
    log = brv("dream", "--log", result.id, "--json", cwd=project.root).json()
    assert log["logs"][0]["status"] == "undone"
    assert {e.status for e in review.pending(project, all_entries=True).entries
            if e.task == result.id} <= {"rejected", "approved"}
    assert review.pending(project).entries == ()


def test_undo_is_refused_for_an_older_dream_or_after_a_later_edit(project, brv):
    a, _ = duplicate_pair(project)
    first = dream.dream(project, NOW, force=True)
    add(project, "ops/deploy", "Deploys", "Blue green deploys.", NOW + timedelta(days=1))
    second = dream.dream(project, NOW + timedelta(days=1), force=True)
    older = brv("dream", "--undo", first.id, cwd=project.root)
    assert older.exit_code == 1
    assert f"only the last dream ({second.id}) can be undone, not {first.id}" in older.stderr
    brv("dream", "--undo", cwd=project.root)
    # the first dream is the last one now; a later hand edit protects its result
    (project.tree / a).write_bytes((project.tree / a).read_bytes() + b"\nmine\n")
    snapshot = tree_bytes(project.root)
    refused = brv("dream", "--undo", first.id, cwd=project.root)
    assert refused.exit_code == 1
    assert f"{a} was changed again after this change" in refused.stderr
    assert tree_bytes(project.root) == snapshot


def test_undo_names_a_missing_older_backup_as_a_state_error(project, brv):
    a, _ = duplicate_pair(project)
    add(project, "api/auth", "OAuth flow details", OAUTH + " Clients retry.")
    result = dream.dream(project, NOW, force=True)
    changes = [review.FileChange.from_dict(c) for op in dreamlog.read(project, result.id)[
        "operations"] for c in op.get("changes", [])]
    first, *later = [c for c in changes if c.path == a]
    assert later  # the dream changed the entry more than once: the first backup is older
    assert first.before is not None
    store = dreamlog.store(project).folder
    (store / first.before[:2] / first.before).unlink()
    snapshot = tree_bytes(project.root)
    refused = brv("dream", "--undo", "--json", cwd=project.root)
    assert refused.exit_code == 1
    error = refused.json()["error"]
    assert error["code"] == "state"
    assert error["message"] == (f"the backup of {a} is missing ({first.before[:12]} under "
                                f"{store})")
    assert tree_bytes(project.root) == snapshot


def test_undo_twice_and_without_a_dream_is_refused(project, brv):
    none = brv("dream", "--undo", cwd=project.root)
    assert none.exit_code == 1
    assert "no dream to undo" in none.stderr
    duplicate_pair(project)
    dream.dream(project, NOW, force=True)
    assert brv("dream", "--undo", cwd=project.root).exit_code == 0
    twice = brv("dream", "--undo", cwd=project.root)
    assert twice.exit_code == 1
    assert "is already undone" in twice.stderr


_TITLES = st.sampled_from(["OAuth flow", "OAuth flow notes", "Token storage", "Fax setup",
                           "Retry policy", "Deploys"])
_TEXTS = st.sampled_from([OAUTH, OAUTH + " Tokens are opaque.", "Fax machines need paper.",
                          "Clients retry three times with backoff.", "Blue green deploys."])
_ENTRIES = st.lists(st.tuples(st.sampled_from(["api/auth", "security/tokens", "notes/old"]),
                              _TITLES, _TEXTS, st.sampled_from([0, 0, 61, 130])),
                    min_size=1, max_size=6, unique_by=lambda e: (e[0], e[1]))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entries=_ENTRIES, reject=st.booleans())
def test_undo_and_reject_restore_random_trees_byte_for_byte(tmp_path, entries, reject):
    root = tmp_path / "p"
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir()
    init_project(root)
    project = Project(root)
    review.set_enabled(project, True)
    for folder, title, text, days in entries:
        rel = add(project, folder, title, text)
        if days:
            age(project, rel, days)
    before = tree_bytes(root)
    dream.dream(project, NOW, force=True)
    if reject:
        # reject what waits for review first (refused when a later change built on it),
        # then undo the rest: together they must give back every byte
        with contextlib.suppress(ConflictError):
            review.reject(project, NOW, everything=True)
    dream.undo(project, NOW)
    assert tree_bytes(root) == before


def test_a_killed_dream_is_undone_from_its_journal_even_with_a_torn_last_line(project):
    _busy_tree(project)
    before = tree_bytes(project.root)
    result = dream.dream(project, NOW, force=True)
    assert any(op["changes"] for op in result.operations)
    # the shape a kill -9 leaves: the log as written at the start, operations in the journal
    folder = project.state / "dream-log"
    log = json.loads((folder / f"{result.id}.json").read_text())
    lines = [json.dumps(op) for op in log.pop("operations")]
    log.update(status="processing", operations=[], journal=True)
    (folder / f"{result.id}.json").write_text(json.dumps(log))
    (folder / f"{result.id}.ops.jsonl").write_text("\n".join(lines) + '\n{"operation": "pr')
    undone = dream.undo(project, NOW)
    assert undone.id == result.id
    assert tree_bytes(project.root) == before
    assert not (folder / f"{result.id}.ops.jsonl").exists()
    kept = json.loads((folder / f"{result.id}.json").read_text())
    assert kept["status"] == "undone"
    assert len(kept["operations"]) == len(result.operations) + result.skipped
