"""The default engine's operations and decisions: consolidate, synthesize, prune (seed 001)."""

from __future__ import annotations

from datetime import timedelta

from dream_support import NOW, OAUTH, add, age, duplicate_pair, logged_ops, tree_bytes

from brv_vc.format.entry import parse_entry
from brv_vc.services import dream
from brv_vc.services.dream import synthesize
from brv_vc.tree import dreamstate


def _ops(result, action):
    return [op for op in result.operations if op["action"] == action]


def _entry(project, rel):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


def test_merge_goes_through_curate_and_records_lineage(project):
    a, b = duplicate_pair(project)
    linker = add(project, "api/clients", "Mobile client", "The mobile client calls the API.",
                 related=[b])
    result = dream.dream(project, NOW, force=True)
    merge = _ops(result, "MERGE")[0]
    assert merge["target"] == a
    assert merge["sources"] == [b]
    assert merge["needsReview"] is True  # seed 001: MERGE always needs review
    assert not (project.tree / b).exists()
    target = _entry(project, a)
    extra = dict(target.extra)
    assert extra["consolidated_at"] == "2025-03-01T10:00:00Z"
    assert extra["consolidated_from"] == [b]
    assert a in _entry(project, linker).related  # the curate MERGE repointed the link
    assert {c["path"] for c in merge["changes"]} == {a, b, linker}


def test_temporal_update_links_the_newer_entry_and_leaves_the_text(project):
    old = add(project, "api/retry", "Retry policy",
              "Clients retry failed requests three times with exponential backoff and jitter.")
    new = add(project, "api/retry", "Retry policy for uploads",
              "Clients retry failed requests five times with exponential backoff and jitter; "
              "uploads resume from the last chunk.", NOW + timedelta(days=1))
    result = dream.dream(project, NOW + timedelta(days=1), force=True)
    update = _ops(result, "TEMPORAL_UPDATE")[0]
    assert update["file"] == old
    assert update["newer"] == new
    assert update["needsReview"] == (update["confidence"] < 0.7)
    before = _entry(project, old)
    # issue 37: the relation is a link; a line appended to the text filled search excerpts
    assert new in before.related
    assert "Newer knowledge" not in before.body
    assert "### Update" not in before.body


def test_cross_reference_links_related_entries_both_ways(project):
    a = add(project, "api/auth", "OAuth flow", OAUTH)
    b = add(project, "security/tokens", "Token storage", OAUTH + " Stored encrypted at rest.")
    result = dream.dream(project, NOW, force=True)
    link = _ops(result, "CROSS_REFERENCE")[0]
    assert link["files"] == sorted([a, b])
    assert link["needsReview"] is False  # neither entry is core
    assert b in _entry(project, a).related
    assert a in _entry(project, b).related


def test_skip_when_nothing_is_similar(project):
    add(project, "api/auth", "OAuth flow", OAUTH)
    add(project, "ops/deploy", "Blue green deploys", "Deploys switch the load balancer.")
    result = dream.dream(project, NOW, force=True)
    assert not result.operations  # the SKIPs are counted, and kept in the log with their reason
    assert result.skipped == 2
    assert {op["action"] for op in logged_ops(project, result.id)
            if op["operation"] == "consolidate"} == {
        "SKIP"}
    assert result.summary["consolidated"] == 0


def test_synthesis_frontmatter_order_and_review_flag(project):
    add(project, "api/auth", "OAuth flow", OAUTH)
    add(project, "security/tokens", "Key rotation",
        "Signing keys rotate yearly; the oauth server publishes both keys meanwhile.")
    result = dream.dream(project, NOW, force=True)
    created = _ops(result, "CREATE")[0]
    text = (project.tree / created["path"]).read_text()
    keys = [line.split(":")[0] for line in text.split("---\n")[1].splitlines()]
    assert keys == ["confidence", "sources", "synthesized_at", "type", "title", "summary",
                    "tags", "related", "keywords", "createdAt", "updatedAt"]
    assert "type: synthesis\n" in text
    # the synthesis rests on the entries themselves, never on generated summaries
    assert 'sources: ["api/auth/oauth_flow.md", "security/tokens/key_rotation.md"]' in text
    assert 'related: ["api/auth/oauth_flow.md", "security/tokens/key_rotation.md"]' in text
    assert created["title"] == "OAuth in api and security"
    assert created["confidence"] == 0.5  # offline: a proposal, always under review
    assert created["needsReview"] is True


def test_synthesis_skips_with_one_domain_and_dedupes(project):
    add(project, "api/auth", "OAuth flow", OAUTH)
    assert _ops(dream.dream(project, NOW, force=True), "CREATE") == []
    add(project, "security/tokens", "Key rotation", "OAuth signing keys rotate yearly.")
    first = _ops(dream.dream(project, NOW + timedelta(days=1), force=True), "CREATE")
    assert len(first) >= 1
    add(project, "ops/deploy", "Deploy", "Deploys never touch oauth.", NOW + timedelta(days=1))
    again = dream.dream(project, NOW + timedelta(days=1), force=True)
    assert [op["path"] for op in _ops(again, "CREATE")] != [op["path"] for op in first]


def test_prune_archives_stale_drafts_through_the_archive(project):
    keep = add(project, "notes/misc", "Fresh note", "Fresh and useful.")
    stale = add(project, "notes/old", "Old draft", "A forgotten draft about fax machines.")
    age(project, stale, 61)
    result = dream.dream(project, NOW, force=True)
    archive = _ops(result, "ARCHIVE")
    assert [op["file"] for op in archive] == [stale]
    assert archive[0]["reason"].startswith("draft and untouched for 61 days")
    assert not (project.tree / stale).exists()
    assert (project.tree / "_archived/notes/old/old_draft.full.md").is_file()
    assert (project.tree / keep).exists()


def test_prune_keeps_linked_entries_and_resets_their_clock(project):
    stale = add(project, "notes/old", "Old draft", "A forgotten draft about fax machines.")
    add(project, "notes/misc", "Reading list", "See the old draft.", related=[stale])
    age(project, stale, 90)
    result = dream.dream(project, NOW, force=True)
    assert [op["file"] for op in _ops(result, "KEEP")] == [stale]
    assert (project.tree / stale).stat().st_mtime == NOW.timestamp()


def test_merge_into_waits_in_pending_merges_for_the_next_consolidate(project):
    a = add(project, "notes/old", "Fax setup", "Fax machines need a dial tone and paper.")
    b = add(project, "notes/old", "Fax setup notes",
            "Fax machines need a dial tone and paper; toner too.")
    before = tree_bytes(project.root)
    dreamstate.update_state(project, lambda s: s.update(lastDreamWall=4102444800.0))
    age(project, a, 70)
    age(project, b, 10)
    result = dream.dream(project, NOW, force=True)
    suggestion = _ops(result, "MERGE_INTO")[0]
    assert (suggestion["file"], suggestion["target"]) == (a, b)
    assert tree_bytes(project.root) == before  # only a hint
    assert [h["file"] for h in dreamstate.read_state(project)["pendingMerges"]] == [a]
    nxt = dream.dream(project, NOW + timedelta(days=1), force=True)
    merge = _ops(nxt, "MERGE")[0]
    assert merge["sources"] == [a]
    assert merge["reason"].startswith("suggested by the last prune")
    assert dreamstate.read_state(project)["pendingMerges"] == []


def test_same_tree_and_clock_give_the_same_operations(tmp_path):
    from brv_vc.services.init import init_project
    from brv_vc.tree.project import Project

    runs = []
    for name in ("one", "two"):
        root = tmp_path / name
        root.mkdir()
        init_project(root)
        project = Project(root)
        duplicate_pair(project)
        add(project, "security/tokens", "Token storage", "OAuth refresh tokens stored safely.")
        ops = dream.dream(project, NOW, force=True).operations
        runs.append([{k: v for k, v in op.items() if k not in ("changes", "reviewId")}
                     for op in ops])
    assert runs[0] == runs[1]


def test_existing_syntheses_are_the_entries_of_the_synthesis_domain(project):
    """What an entry is comes from tree/layout.kind_of: no file beside or below the levels."""
    real = add(project, "synthesis/patterns", "Token pattern", OAUTH)
    text = (project.tree / real).read_bytes()
    for loose in ("synthesis/loose.md", "synthesis/patterns/a/b/too_deep.md"):
        (project.tree / loose).parent.mkdir(parents=True, exist_ok=True)
        (project.tree / loose).write_bytes(text)
    assert list(synthesize.existing(project)) == [real]
