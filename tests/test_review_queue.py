"""brv review: listing as seed 001, show with the semantic diff, approve, reject byte for byte."""

from __future__ import annotations

from conftest import brv_process
from dream_support import NOW, add, duplicate_pair, tree_bytes

from brv_vc.cli.fast import try_fast
from brv_vc.services import dream, review


def _dream_with_review(project, brv):
    assert brv("review", "--enable", cwd=project.root).exit_code == 0
    a, b = duplicate_pair(project)
    before = tree_bytes(project.root)
    result = dream.dream(project, NOW, force=True)
    return a, b, before, result


def test_enable_and_disable_are_kept_in_config(project, brv):
    assert not review.is_enabled(project)
    on = brv("review", "--enable", "--json", cwd=project.root).json()
    assert on == {"ok": True, "version": 1, "enabled": True}
    assert "review:\n  enabled: true\n" in project.config_path.read_text()
    brv("review", "--disable", cwd=project.root)
    assert not review.is_enabled(project)
    assert project.config_path.read_text().count("review:") == 1


def test_pending_lists_dream_changes_as_the_seed_shows(project, brv):
    a, b, _, _ = _dream_with_review(project, brv)
    text = brv("review", "pending", cwd=project.root).stdout
    assert f"[dream/consolidate] Merged {b} into {a} — " in text
    data = brv("review", "pending", "--json", cwd=project.root).json()
    assert [e["source"] for e in data["entries"]] == ["dream/consolidate"]
    assert data["entries"][0]["status"] == "pending"


def test_show_renders_the_semantic_diff(project, brv):
    _a, b, _, _ = _dream_with_review(project, brv)
    entry = review.pending(project).entries[0]
    text = brv("review", "show", str(entry.id), cwd=project.root).stdout
    assert "Knowledge changes (before -> after):" in text
    assert f"removed   {b}" in text
    assert "consolidated_from: (none) -> " in text


def test_reject_restores_bytes_and_refreshes(project, brv):
    a, b, before, _ = _dream_with_review(project, brv)
    entry = review.pending(project).entries[0]
    result = brv("review", "reject", str(entry.id), "--json", cwd=project.root).json()
    assert result["action"] == "rejected"
    after = tree_bytes(project.root)
    assert after[a] == before[a]
    assert after[b] == before[b]
    assert b in brv("search", "refresh", "--json", cwd=project.root).stdout  # re-indexed
    assert review.pending(project).entries == ()


def test_a_reject_cut_short_is_finished_by_running_it_again(project, brv):
    a, b, before, _ = _dream_with_review(project, brv)
    entry = review.pending(project).entries[0]
    (project.tree / b).write_bytes(before[b])  # what a reject killed after its first file left
    result = brv("review", "reject", str(entry.id), "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    after = tree_bytes(project.root)
    assert after[a] == before[a]
    assert after[b] == before[b]
    assert review.pending(project).entries == ()


def test_approve_keeps_the_change_and_drops_backups(project, brv):
    a, _b, _, _ = _dream_with_review(project, brv)
    entry = review.pending(project).entries[0]
    merged = (project.tree / a).read_bytes()
    assert brv("review", "approve", "--all", cwd=project.root).exit_code == 0
    assert (project.tree / a).read_bytes() == merged
    assert not list((project.state / "review" / "backups").glob("??/*"))
    again = brv("review", "reject", str(entry.id), cwd=project.root)
    assert again.exit_code == 1
    assert f"review entry {entry.id} is already approved" in again.stderr


def test_reject_of_a_change_a_later_one_built_on_undoes_both(project, brv):
    brv("review", "--enable", cwd=project.root)
    rel = add(project, "api/auth", "OAuth flow", "first version")
    brv("curate", "update", rel, "--content", "second version", "--reason", "r", cwd=project.root)
    first = brv("curate", "--ops", "-", cwd=project.root, input=(
        f'[{{"type": "UPDATE", "path": "{rel}", "content": "third", "reason": "r", '
        '"review": true}]'))
    assert first.exit_code == 0
    deleted = brv("curate", "delete", rel, "--reason", "obsolete", cwd=project.root)
    assert deleted.exit_code == 0
    entries = review.pending(project).entries
    assert [e.source for e in entries] == ["curate/UPDATE", "curate/DELETE"]
    done = brv("review", "reject", str(entries[0].id), cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert f"{entries[1].id}  [curate/DELETE]" in done.stdout
    assert f"(pending, built on {entries[0].id})" in done.stdout
    assert b"second version" in (project.tree / rel).read_bytes()
    assert review.pending(project).entries == ()


def test_unknown_id_and_missing_backup_change_nothing(project, brv):
    _a, _b, _, _ = _dream_with_review(project, brv)
    snapshot = tree_bytes(project.root)
    unknown = brv("review", "reject", "999", cwd=project.root)
    assert unknown.exit_code == 1
    assert "no review entry with id 999" in unknown.stderr
    entry = review.pending(project).entries[0]
    for path in (project.state / "review" / "backups").glob("??/*"):
        path.unlink()
    missing = brv("review", "reject", str(entry.id), cwd=project.root)
    assert missing.exit_code == 1
    assert "the backup of" in missing.stderr
    assert "is missing" in missing.stderr
    assert tree_bytes(project.root) == snapshot
    assert review.pending(project).entries[0].status == "pending"


def test_a_missing_older_backup_is_a_state_error_not_a_conflict(project, brv):
    brv("review", "--enable", cwd=project.root)
    rel = add(project, "api/auth", "OAuth flow", "first version")
    for content in ("second", "third"):
        assert brv("curate", "--ops", "-", cwd=project.root, input=(
            f'[{{"type": "UPDATE", "path": "{rel}", "content": "{content}", "reason": "r", '
            '"review": true}]')).exit_code == 0
    older, newer = review.pending(project).entries
    (oldest,) = older.changes
    assert newer.changes[0].before == oldest.after  # the newer change built on the older
    store = project.state / "review" / "backups"
    (store / oldest.before[:2] / oldest.before).unlink()
    snapshot = tree_bytes(project.root)
    refused = brv("review", "reject", "--all", "--json", cwd=project.root)
    assert refused.exit_code == 1
    error = refused.json()["error"]
    assert error["code"] == "state"
    assert error["message"] == (f"the backup of {rel} is missing ({oldest.before[:12]} under "
                                f"{store})")
    assert tree_bytes(project.root) == snapshot
    assert [e.status for e in review.pending(project).entries] == ["pending", "pending"]


def test_reject_refuses_a_file_changed_since(project, brv):
    a, _, _, _ = _dream_with_review(project, brv)
    (project.tree / a).write_bytes((project.tree / a).read_bytes() + b"\nhand edit\n")
    refused = brv("review", "reject", "--all", cwd=project.root)
    assert refused.exit_code == 1
    assert f"{a} was changed again after this change" in refused.stderr
    assert b"hand edit" in (project.tree / a).read_bytes()


def test_curate_delete_is_queued_only_when_review_is_enabled(project, brv):
    rel = add(project, "api/auth", "OAuth flow", "content")
    brv("curate", "delete", rel, "--reason", "obsolete", cwd=project.root)
    assert review.pending(project).entries == ()
    brv("review", "--enable", cwd=project.root)
    rel = add(project, "api/auth", "Token flow", "content")
    original = (project.tree / rel).read_bytes()
    brv("curate", "delete", rel, "--reason", "obsolete", cwd=project.root)
    (entry,) = review.pending(project).entries
    assert entry.line().startswith("[curate/DELETE] ")
    brv("review", "reject", "--file", rel, cwd=project.root)
    assert (project.tree / rel).read_bytes() == original


def test_review_pending_over_1000_entries_lists_them_all(project, brv):
    from brv_vc.services.review.entries import insert
    from brv_vc.tree.statedb import open_state

    brv("review", "--enable", cwd=project.root)
    conn = open_state(project)
    try:
        for i in range(1000):
            change = review.FileChange(f"a/b/e{i}.md", None, "0" * 64)
            insert(conn, "2025-03-01T10:00:00Z", "curate/ADD", f"added e{i}", "r", "t",
                   "pending", [change])
    finally:
        conn.close()
    data = brv("review", "pending", "--json", cwd=project.root).json()
    assert len(data["entries"]) == 1000


def test_the_click_free_listing_prints_what_click_prints(project, brv, capsys):
    disabled = [brv_process("review", "pending", *flags, cwd=project.root)
                for flags in ((), ("--json",))]
    assert [r.stdout for r in disabled] == [brv("review", "pending", *flags, cwd=project.root).stdout
                                            for flags in ((), ("--json",))]
    assert "review is disabled" in disabled[0].stdout
    _dream_with_review(project, brv)
    first = review.pending(project).entries[0]
    brv("review", "approve", str(first.id), cwd=project.root)
    add(project, "notes/misc", "Scratch", "to delete")
    deleted = brv("curate", "delete", "notes/misc/scratch.md", "--reason", "gone",
                  cwd=project.root)  # a pending curate/DELETE
    assert deleted.exit_code == 0, deleted.stderr
    for flags in ((), ("--json",), ("--all",), ("--all", "--json"), ("--json", "--all")):
        fast = brv_process("review", "pending", *flags, cwd=project.root)
        slow = brv("review", "pending", *flags, cwd=project.root)
        assert fast.exit_code == slow.exit_code == 0, fast.stderr
        assert fast.stdout == slow.stdout, flags
        assert fast.stderr == slow.stderr == ""
    listed = brv_process("review", "pending", "--all", cwd=project.root).stdout
    assert "(approved)" in listed
    assert "[curate/DELETE]" in listed
    assert try_fast(["-C", str(project.root), "review", "pending", "--json"]) == 0  # no click
    assert '"entries"' in capsys.readouterr().out
    wrong = brv_process("review", "pending", "--bogus", cwd=project.root)  # click reports it
    assert wrong.exit_code == 2
    assert "No such option '--bogus'" in wrong.stderr
