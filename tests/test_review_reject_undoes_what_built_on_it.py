"""brv review reject never dead-ends (issue 37): a pending change that a later, already
approved change built on is rejected with it, both undone byte for byte, and the answer
names the approved one; --dry-run says so first and changes nothing.

On 406a9e1 'brv review reject 48' was refused with "reject 49 first" while 49 was approved
and could not be rejected.
"""

from __future__ import annotations

import json

from dream_support import add, tree_bytes

from brv_vc.services import review


def _reviewed_update(brv, project, rel: str, content: str) -> None:
    done = brv("curate", "--ops", "-", cwd=project.root, input=json.dumps(
        [{"type": "UPDATE", "path": rel, "content": content, "reason": "r", "review": True}]))
    assert done.exit_code == 0, done.stderr


def test_rejecting_a_change_an_approved_one_built_on_undoes_both(project, brv):
    assert brv("review", "--enable", cwd=project.root).exit_code == 0
    rel = add(project, "api/auth", "OAuth flow", "Tokens last one hour.")
    first_bytes = (project.tree / rel).read_bytes()
    _reviewed_update(brv, project, rel, "Tokens last two hours.")
    _reviewed_update(brv, project, rel, "Tokens last three hours.")
    older, newer = (e.id for e in review.pending(project).entries)
    assert brv("review", "approve", str(newer), cwd=project.root).exit_code == 0

    before = tree_bytes(project.root)
    preview = brv("review", "reject", str(older), "--dry-run", "--json", cwd=project.root)
    assert preview.exit_code == 0, preview.stderr
    data = preview.json()
    assert data["dry_run"] is True
    assert [e["id"] for e in data["entries"]] == [older]
    assert [(p["entry"]["id"], p["on"], p["was"]) for p in data["also"]] == [
        (newer, older, "approved")]
    assert tree_bytes(project.root) == before  # a dry run changes nothing

    done = brv("review", "reject", str(older), cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert "reject" not in done.stderr  # no "reject N first"
    assert f"(approved, built on {older})" in done.stdout
    assert (project.tree / rel).read_bytes() == first_bytes
    statuses = {e.id: e.status for e in review.pending(project, all_entries=True).entries}
    assert statuses == {older: "rejected", newer: "rejected"}
    assert not list((project.state / "review" / "backups").glob("??/*"))  # nothing left


def test_only_the_changes_that_built_on_it_are_undone(project, brv):
    """A later change of another file stays; the one of the same file goes with it."""
    brv("review", "--enable", cwd=project.root)
    rel = add(project, "api/auth", "OAuth flow", "Tokens last one hour.")
    first_bytes = (project.tree / rel).read_bytes()
    _reviewed_update(brv, project, rel, "Tokens last two hours.")
    other = add(project, "ops/deploy", "Deploys", "Deploys go out on Tuesdays.")
    done = brv("curate", "--ops", "-", cwd=project.root, input=json.dumps([
        {"type": "UPDATE", "path": rel, "content": "Tokens last a day.", "reason": "r",
         "review": True},
        {"type": "UPDATE", "path": other, "content": "Deploys go out daily.", "reason": "r",
         "review": True}]))
    assert done.exit_code == 0, done.stderr
    older, same_file, other_file = (e.id for e in review.pending(project).entries)
    assert brv("review", "approve", str(same_file), cwd=project.root).exit_code == 0
    rejected = brv("review", "reject", str(older), "--json", cwd=project.root)
    assert rejected.exit_code == 0, rejected.stderr
    assert [p["entry"]["id"] for p in rejected.json()["also"]] == [same_file]
    assert (project.tree / rel).read_bytes() == first_bytes
    assert b"Deploys go out daily." in (project.tree / other).read_bytes()
    assert [e.id for e in review.pending(project).entries] == [other_file]
