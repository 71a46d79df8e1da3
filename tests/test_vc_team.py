"""Team stories over a bare remote: two clones, real git, real merges through our driver."""

from __future__ import annotations

import vc_helpers
from conftest import snapshot
from vc_helpers import Team

ROT = "auth/jwt/token_rotation.md"

team = vc_helpers.team


def test_clone_registers_drivers_and_matches_alice(team: Team) -> None:
    assert team.bob.read(ROT) == team.alice.read(ROT)
    config = team.bob.git("config", "--local", "--list")
    assert "merge.brv.driver=" in config
    assert "diff.brv.textconv=" in config
    assert "*.md merge=brv diff=brv" in team.bob.git("show", "HEAD:.gitattributes")
    assert "_index.md" in team.bob.git("show", "HEAD:.gitignore")
    status = team.bob.ok("vc", "status", "--json").json()
    assert status["branch"] == "main"
    assert status["upstream"] == "origin/main"
    assert status["staged"] == []
    assert status["untracked"] == []
    assert status["unstaged"] == []


def test_disjoint_edits_merge_without_conflict(team: Team) -> None:
    team.alice.edit(ROT, tags=("auth", "jwt", "security"))
    team.alice.sync("alice: tag security")
    team.bob.write("auth/jwt/signing_keys.md", "Signing keys", facts=["keys rotate monthly"])
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob: signing keys")
    rejected = team.bob.fails("vc", "push")
    assert "pull first" in rejected.stderr
    pulled = team.bob.ok("vc", "pull", "--json").json()
    assert pulled["conflicts"] == []
    assert ROT in pulled["after"]["changed"]
    team.bob.ok("vc", "push")
    team.alice.ok("vc", "pull")
    assert team.alice.read(ROT).tags == ("auth", "jwt", "security")
    assert team.alice.read("auth/jwt/signing_keys.md").title == "Signing keys"


def test_same_entry_different_fields_and_sections_merge_cleanly(team: Team) -> None:
    team.alice.edit(ROT, tags=("auth", "jwt", "alice"), updated_at="2025-04-01T00:00:00Z")
    team.alice.sync("alice")
    entry = team.bob.read(ROT)
    team.bob.edit(ROT, tags=("auth", "jwt", "bob"), summary="Rotation of refresh tokens",
                  updated_at="2025-05-01T00:00:00Z",
                  body=entry.body.replace("- refresh tokens are single-use",
                                          "- refresh tokens are single-use\n- reuse revokes all"))
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob")
    team.bob.ok("vc", "pull")
    merged = team.bob.read(ROT)
    assert set(merged.tags) == {"auth", "jwt", "alice", "bob"}
    assert merged.summary == "Rotation of refresh tokens"
    assert merged.updated_at == "2025-05-01T00:00:00Z"
    assert "reuse revokes all" in merged.body
    assert "<<<<<<<" not in team.bob.text(ROT)


def test_same_field_edited_both_sides_conflicts_then_resolves(team: Team) -> None:
    team.alice.edit(ROT, title="Token rotation (alice)")
    team.alice.sync("alice title")
    team.bob.edit(ROT, title="Token rotation (bob)", tags=("auth", "jwt", "bob"))
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob title")
    result = team.bob.fails("vc", "pull", "--json")
    assert [c["path"] for c in result.json()["conflicts"]] == [ROT]
    text = team.bob.text(ROT)
    assert 'title: "Token rotation (alice)"' in text.split("=======")[1]
    assert 'tags: ["auth", "jwt", "bob"]' in text  # the non-conflicting key merged
    assert text.count("<<<<<<< ours") == 1

    status = team.bob.ok("vc", "status", "--json").json()
    assert status["merging"]
    assert status["conflicts"][0]["change"] == "both modified"
    assert status["markers"] == [ROT]
    text_status = team.bob.ok("vc", "status").stdout
    assert "Unmerged paths:" in text_status
    assert "Files with conflict markers:" in text_status

    before = snapshot(team.bob.root)
    refused = team.bob.fails("vc", "commit", "-m", "too early")
    assert "unmerged paths" in refused.stderr
    team.bob.ok("vc", "add")  # staging a file that still has markers...
    refused = team.bob.fails("vc", "merge", "--continue")
    assert "conflict markers remain" in refused.stderr
    assert "auth/jwt/token_rotation.md" in refused.stderr
    assert snapshot(team.bob.root) == before

    resolved = text.replace(text[text.index("<<<<<<<"):text.index(">>>>>>> theirs\n") + 15],
                            'title: "Token rotation"\n')
    (team.bob.tree / ROT).write_text(resolved)
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "merge", "--continue")
    assert team.bob.read(ROT).title == "Token rotation"
    assert not team.bob.ok("vc", "status", "--json").json()["merging"]
    team.bob.ok("vc", "push")


def test_same_section_conflict_markers_only_in_that_section(team: Team) -> None:
    body = team.alice.read(ROT).body
    team.alice.edit(ROT, body=body.replace("rotate on every use", "rotate hourly"))
    team.alice.sync("alice narrative")
    team.bob.edit(ROT, body=body.replace("rotate on every use", "rotate daily")
                  .replace("single-use", "single-use, 30 day expiry"))
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob narrative")
    team.bob.fails("vc", "pull")
    text = team.bob.text(ROT)
    narrative = text[text.index("## Narrative"):text.index("## Facts")]
    assert "<<<<<<< ours" in narrative
    assert "rotate daily" in narrative
    assert "rotate hourly" in narrative
    facts = text[text.index("## Facts"):]
    assert "<<<<<<<" not in facts
    assert "30 day expiry" in facts
    assert text.count("<<<<<<<") == 1


def test_merge_abort_restores_the_state_before_the_merge(team: Team) -> None:
    team.alice.edit(ROT, title="A")
    team.alice.sync("a")
    team.bob.edit(ROT, title="B")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "b")
    before = snapshot(team.bob.root)
    head = team.bob.git("rev-parse", "HEAD")
    team.bob.fails("vc", "pull")
    assert snapshot(team.bob.root) != before
    team.bob.ok("vc", "merge", "--abort")
    assert snapshot(team.bob.root) == before
    assert team.bob.git("rev-parse", "HEAD") == head
    assert not team.bob.ok("vc", "status", "--json").json()["merging"]


def test_delete_against_modify_is_a_conflict_git_records(team: Team) -> None:
    (team.alice.tree / ROT).unlink()
    team.alice.sync("alice deletes")
    team.bob.edit(ROT, summary="bob still needs it")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob modifies")
    conflicts = team.bob.fails("vc", "pull", "--json").json()["conflicts"]
    assert conflicts == [{"change": "deleted by them", "path": ROT, "old": None}]
    team.bob.ok("vc", "add", ROT)  # keep bob's version
    team.bob.ok("vc", "merge", "--continue")
    assert team.bob.read(ROT).summary == "bob still needs it"


def test_rename_on_one_side_edit_on_the_other(team: Team) -> None:
    new = "auth/tokens/token_rotation.md"
    (team.alice.tree / new).parent.mkdir(parents=True)
    (team.alice.tree / ROT).rename(team.alice.tree / new)
    team.alice.sync("move to tokens")
    team.bob.edit(ROT, tags=("auth", "jwt", "rotation"))
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob tags")
    team.bob.ok("vc", "pull")
    assert not (team.bob.tree / ROT).exists()
    assert team.bob.read(new).tags == ("auth", "jwt", "rotation")


def test_pull_refuses_to_overwrite_uncommitted_changes(team: Team) -> None:
    team.alice.edit(ROT, title="Alice")
    team.alice.sync("a")
    team.bob.edit(ROT, title="Bob, not committed")
    before = snapshot(team.bob.root)
    head = team.bob.git("rev-parse", "HEAD")
    result = team.bob.fails("vc", "pull")
    assert f"would overwrite uncommitted local changes in: {ROT}" in result.stderr
    assert snapshot(team.bob.root) == before
    assert team.bob.git("rev-parse", "HEAD") == head


def test_checkout_branches_and_refresh(team: Team) -> None:
    team.alice.ok("vc", "checkout", "-b", "review")
    team.alice.write("auth/jwt/draft.md", "Draft")
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "draft")
    branches = team.alice.ok("vc", "branch", "--json").json()
    assert branches["current"] == "review"
    assert set(branches["branches"]) == {"main", "review"}
    moved = team.alice.ok("vc", "checkout", "main", "--json").json()
    assert moved["after"]["changed"] == ["auth/jwt/draft.md"]
    assert not (team.alice.tree / "auth/jwt/draft.md").exists()
    refused = team.alice.fails("vc", "branch", "-d", "review")
    assert "not fully merged" in refused.stderr
    team.alice.ok("vc", "merge", "review")
    assert (team.alice.tree / "auth/jwt/draft.md").exists()
    team.alice.ok("vc", "branch", "-d", "review")
    log = team.alice.ok("vc", "log", "--json").json()["commits"]
    assert log[0]["subject"] == "draft"


def test_vc_commit_of_an_archived_deletion_carries_a_trailer(team: Team) -> None:
    archived = team.alice.tree / "_archived/auth/jwt/token_rotation.full.md"
    archived.parent.mkdir(parents=True)
    archived.write_bytes((team.alice.tree / ROT).read_bytes())
    original = (team.alice.tree / ROT).read_bytes()
    (team.alice.tree / ROT).unlink()
    team.alice.ok("vc", "add")
    result = team.alice.ok("vc", "commit", "-m", "archive rotation", "--json").json()
    assert result["archived"] == [ROT]
    assert f"Brv-Archived: {ROT}" in team.alice.git("log", "-1", "--format=%B")
    assert "_archived" not in team.alice.git("ls-files")
    team.alice.ok("vc", "push")

    from brv_vc.vc.archived import archived_in_range
    from brv_vc.vc.repo import KnowledgeRepo

    old = team.bob.git("rev-parse", "HEAD").strip()
    pulled = team.bob.ok("vc", "pull", "--json").json()
    repo = KnowledgeRepo(team.bob.tree, "")
    assert archived_in_range(repo, old, "HEAD") == [(ROT, original)]
    assert archived_in_range(repo, None, "HEAD") == [(ROT, original)]
    assert archived_in_range(repo, "HEAD", "HEAD") == []
    assert pulled["after"]["archived"] == [ROT]
    assert (team.bob.tree / "_archived/auth/jwt/token_rotation.full.md").read_bytes() == original
    assert (team.bob.tree / "_archived/auth/jwt/token_rotation.stub.md").exists()


def test_clone_of_an_empty_remote_then_first_push(tmp_path) -> None:
    from vc_helpers import git, make_member

    bare = tmp_path / "empty.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    carol = make_member(tmp_path, "carol")
    carol.ok("vc", "clone", str(bare))
    status = carol.ok("vc", "status", "--json").json()
    assert status["initial"]
    assert status["branch"] == "main"
    assert set(status["untracked"]) == {".gitignore", ".gitattributes"}
    carol.write(ROT, "Token rotation")
    carol.ok("vc", "add")
    carol.ok("vc", "commit", "-m", "first")
    carol.ok("vc", "push", "-u")
    assert git(bare, "log", "--format=%s", "main").strip() == "first"


def test_machine_state_never_dirties_status(team: Team) -> None:
    state = team.alice.root / ".brv" / "state"
    state.mkdir(exist_ok=True)
    (state / "brv.db").write_bytes(b"index and scoring sidecar")
    assert team.alice.ok("vc", "status", "--json").json()["untracked"] == []
    assert "nothing to commit" in team.alice.ok("vc", "status").stdout


def test_pull_into_a_fresh_init_with_the_same_managed_files(team: Team, tmp_path) -> None:
    from vc_helpers import make_member

    dave = make_member(tmp_path, "dave")
    dave.ok("vc", "init")
    dave.ok("vc", "remote", "add", "origin", str(team.remote))
    dave.ok("vc", "pull", "origin", "main")
    assert dave.read(ROT).title == "Token rotation"
    assert dave.ok("vc", "status", "--json").json()["untracked"] == []


def test_pull_with_conflicts_reports_ok_false(team: Team) -> None:
    team.alice.edit(ROT, title="A")
    team.alice.sync("a")
    team.bob.edit(ROT, title="B")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "b")
    payload = team.bob.fails("vc", "pull", "--json").json()
    assert payload["ok"] is False
    assert payload["conflicts"][0]["path"] == ROT


def test_status_text_is_git_like(team: Team) -> None:
    team.alice.edit(ROT, title="A")
    team.alice.sync("a")
    team.bob.ok("vc", "fetch")
    text = team.bob.ok("vc", "status").stdout
    assert text.startswith("On branch main\nYour branch is behind 'origin/main' by 1 commit")
    team.bob.write("auth/oauth/scopes.md", "Scopes")
    team.bob.edit(ROT, summary="local edit")
    (team.bob.tree / "auth/jwt/new.md").write_text("# New\n")
    team.bob.ok("vc", "add", "auth/jwt/new.md")
    text = team.bob.ok("vc", "status").stdout
    assert "Changes to be committed:" in text
    assert "\tnew file:   auth/jwt/new.md" in text
    assert "Changes not staged for commit:" in text
    assert f"\tmodified:   {ROT}" in text
    assert "Untracked files:" in text
    assert "\tauth/oauth/" in text
    status = team.bob.ok("vc", "status", "--json").json()
    assert status["behind"] == 1
    assert not status["clean"]


def test_real_process_status_with_prefetch_and_a_stale_prefetch(team: Team, tmp_path) -> None:
    from conftest import brv_process

    (team.alice.tree / "_index.md").write_text("derived summary")
    team.alice.edit(ROT, summary="changed")
    result = brv_process("-C", str(team.alice.root), "vc", "status", "--json", cwd=tmp_path)
    assert result.exit_code == 0, result.stderr
    assert result.json()["unstaged"] == [{"change": "modified", "path": ROT, "old": None}]
    # the .gitignore is gone when git status is prefetched; prepare() restores it, so the
    # prefetched answer (which saw _index.md as untracked) must be thrown away
    (team.alice.tree / ".gitignore").unlink()
    result = brv_process("vc", "status", "--json", cwd=team.alice.tree / "auth")
    status = result.json()
    assert status["untracked"] == []
    assert status["unstaged"] == [{"change": "modified", "path": ROT, "old": None}]
