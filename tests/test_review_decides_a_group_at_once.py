"""brv review approve|reject decides a group at once (issue 37): every pending change of one
kind, one domain or one dream (the filters narrow each other), listed first with --dry-run,
one answer for the group; an empty group is refused and changes nothing; a queue made
before the kind column reads on."""

from __future__ import annotations

import sqlite3

from dream_support import NOW, add, duplicate_pair, tree_bytes

from brv_vc.services import dream, review


def _queue(project, brv):
    """Two curate deletions in 'legacy', one in 'ops', and a dream's merge in 'api'."""
    assert brv("review", "--enable", cwd=project.root).exit_code == 0
    legacy = [add(project, "legacy/cookies", "Cookie store", "Sessions lived in cookies."),
              add(project, "legacy/tokens", "Opaque tokens", "Tokens were random strings.")]
    ops = add(project, "ops/deploy", "Deploy days", "Deploys go out on Tuesdays.")
    a, b = duplicate_pair(project)
    before = tree_bytes(project.root)
    for rel in [*legacy, ops]:
        done = brv("curate", "delete", rel, "--reason", "superseded", cwd=project.root)
        assert done.exit_code == 0, done.stderr
    ran = dream.dream(project, NOW, force=True)
    return legacy, ops, (a, b), before, ran.id


def _ids(answer):
    return sorted(e["id"] for e in answer["entries"])


def test_dry_run_lists_a_kind_and_changes_nothing(project, brv):
    legacy, ops, _, _, _ = _queue(project, brv)
    snapshot = tree_bytes(project.root)
    done = brv("review", "reject", "--kind", "delete", "--dry-run", "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    answer = done.json()
    assert answer["dry_run"] is True
    assert sorted(e["changes"][0]["path"] for e in answer["entries"]) == sorted([*legacy, ops])
    assert tree_bytes(project.root) == snapshot
    assert len(review.pending(project).entries) == 4
    text = brv("review", "reject", "--kind", "DELETE", "--dry-run", cwd=project.root).stdout
    assert "would reject 3 review entries" in text
    assert "nothing changed" in text


def test_reject_a_domain_restores_its_files_in_one_answer(project, brv):
    legacy, ops, _, before, _ = _queue(project, brv)
    done = brv("review", "reject", "--domain", "legacy", "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert len(done.json()["entries"]) == 2
    for rel in legacy:
        assert (project.tree / rel).read_bytes() == before[rel]
    assert not (project.tree / ops).exists()
    left = {e.kind for e in review.pending(project).entries}
    assert left == {"DELETE", "MERGE"}


def test_approve_a_dream_and_narrow_by_kind_and_domain(project, brv):
    _, ops, (a, _b), _, dream_id = _queue(project, brv)
    merged = (project.tree / a).read_bytes()
    by_dream = brv("review", "approve", "--dream", dream_id, "--json", cwd=project.root).json()
    assert [e["kind"] for e in by_dream["entries"]] == ["MERGE"]
    assert (project.tree / a).read_bytes() == merged
    both = brv("review", "approve", "--kind", "DELETE", "--domain", "ops", "--json",
               cwd=project.root).json()
    assert [e["changes"][0]["path"] for e in both["entries"]] == [ops]
    assert [e.domain for e in review.pending(project).entries] == ["legacy", "legacy"]


def test_an_empty_group_is_refused_and_changes_nothing(project, brv):
    _queue(project, brv)
    snapshot = tree_bytes(project.root)
    done = brv("review", "reject", "--kind", "ARCHIVE", cwd=project.root)
    assert done.exit_code == 1
    assert "no pending review entry in the group (kind ARCHIVE)" in done.stderr
    assert tree_bytes(project.root) == snapshot
    assert len(review.pending(project).entries) == 4
    nothing = brv("review", "approve", cwd=project.root)
    assert nothing.exit_code == 2  # a usage error
    assert "--kind, --domain, --dream or --all" in nothing.stderr


def test_a_queue_from_before_the_kind_column_reads_on(project, brv):
    legacy, _, _, _, _ = _queue(project, brv)
    db = project.state / "brv.db"
    conn = sqlite3.connect(db)
    with conn:  # the table as 7cc6393 made it: no kind column
        conn.execute("CREATE TABLE old AS SELECT id, created, source, summary, reason, task, "
                     "status, decided, changes FROM review")
        conn.execute("DROP TABLE review")
        conn.execute("ALTER TABLE old RENAME TO review")
    conn.close()
    kinds = sorted(e.kind for e in review.pending(project).entries)
    assert kinds == ["CONSOLIDATE", "DELETE", "DELETE", "DELETE"]
    done = brv("review", "reject", "--kind", "DELETE", "--domain", "legacy", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    assert all((project.tree / rel).exists() for rel in legacy)
