"""brv ui's buttons change the tree as the CLI would: approve keeps a dream's change, reject
restores the files byte for byte, and undo puts back everything the last dream touched."""

from __future__ import annotations

from dream_support import NOW, add, duplicate_pair, tree_bytes
from ui_support import served

from brv_vc.services import dream, review
from brv_vc.services.dream import dreamlog
from brv_vc.tree.project import Project


def _pending(project: Project, brv) -> tuple[str, str, dict[str, bytes], int]:
    assert brv("review", "--enable", cwd=project.root).exit_code == 0
    a, b = duplicate_pair(project)
    before = tree_bytes(project.root)
    dream.dream(project, NOW, force=True)
    (entry,) = review.pending(project).entries
    return a, b, before, entry.id


def test_the_queue_shows_each_change_as_a_semantic_diff_with_buttons(project, brv) -> None:
    _a, b, _, entry_id = _pending(project, brv)
    with served(project, clock=lambda: NOW) as client:
        page = client.get("/review").body
    assert "1 pending" in page
    assert "dream/consolidate" in page
    assert f'<span class="badge st-removed">removed</span> <code>{b}</code>' in page
    assert f'action="/review/{entry_id}/approve"' in page
    assert f'action="/review/{entry_id}/reject"' in page


def test_approve_keeps_the_change_and_empties_the_queue(project, brv) -> None:
    _a, b, before, entry_id = _pending(project, brv)
    merged = tree_bytes(project.root)
    with served(project, clock=lambda: NOW) as client:
        answer = client.post(f"/review/{entry_id}/approve")
        assert answer.status == 303
        assert answer.headers["location"] == f"/review?done=approved&id={entry_id}"
        page = client.get(answer.headers["location"]).body
    assert f"Review entry #{entry_id} approved" in page
    assert review.pending(project).entries == ()
    assert tree_bytes(project.root) == merged != before
    assert b not in merged


def test_reject_restores_the_files_byte_for_byte(project, brv) -> None:
    a, b, before, entry_id = _pending(project, brv)
    with served(project, clock=lambda: NOW) as client:
        assert client.post(f"/review/{entry_id}/reject").status == 303
        again = client.post(f"/review/{entry_id}/reject")  # decided already: refused
    assert again.status == 409
    assert "already rejected" in again.body
    after = tree_bytes(project.root)
    assert after[a] == before[a]
    assert after[b] == before[b]
    (entry,) = review.pending(project, all_entries=True).entries
    assert entry.status == "rejected"


def test_a_refused_post_changes_nothing(project, brv) -> None:
    _a, _b, _, entry_id = _pending(project, brv)
    merged = tree_bytes(project.root)
    with served(project, clock=lambda: NOW) as client:
        evil = client.post(f"/review/{entry_id}/reject",
                           headers={"Origin": "http://evil.example"})
        no_token = client.post(f"/review/{entry_id}/reject", token=None)
    assert (evil.status, no_token.status) == (403, 403)
    assert tree_bytes(project.root) == merged
    assert [e.id for e in review.pending(project).entries] == [entry_id]


def test_undo_puts_back_what_the_last_dream_touched(project) -> None:
    duplicate_pair(project)
    add(project, "ops/deploy", "Blue green deploys", "Deploys switch the load balancer.")
    before = tree_bytes(project.root)
    result = dream.dream(project, NOW, force=True)
    assert tree_bytes(project.root) != before
    with served(project, clock=lambda: NOW) as client:
        listing = client.get("/dreams").body
        assert f'action="/dreams/{result.id}/undo"' in listing
        shown = client.get(f"/dreams/{result.id}").body
        assert "1 consolidated" in shown
        assert result.skipped  # the other entries: counted on the page, not listed
        assert f"{result.skipped} SKIP decision(s)" in shown
        assert "Skipped ops/deploy" not in shown  # the SKIP's own line is in the file only
        answer = client.post(f"/dreams/{result.id}/undo")
        assert answer.status == 303
        page = client.get(answer.headers["location"]).body
        assert f"Dream {result.id} undone" in page
        assert f'action="/dreams/{result.id}/undo"' not in page  # nothing left to undo
        twice = client.post(f"/dreams/{result.id}/undo")
    assert tree_bytes(project.root) == before
    assert dreamlog.read(project, result.id)["status"] == "undone"
    assert twice.status == 409


def test_a_dream_id_is_never_a_path(project) -> None:
    with served(project) as client:
        for bad in ("..%2F..%2Fconfig", "drm-1%2F..%2F..%2Fx", "notadream"):
            assert client.get(f"/dreams/{bad}").status == 404
            assert client.post(f"/dreams/{bad}/undo").status == 404
