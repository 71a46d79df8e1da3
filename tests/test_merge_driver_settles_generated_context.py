"""brv's merge driver settles ``context.md`` files older brv generated from each clone's first
entry: two generated sides become the folder's generated text, a person's file beats a generated
one, and files people edited on both sides merge as knowledge (markers only where both changed
the same section)."""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from vc_helpers import Member, Team, entry_bytes, git, in_project_app

from brv_vc.tree.generated import context_text, is_generated, mark
from brv_vc.tree.store import write_atomic

team = vc_helpers.team

TOPIC = "billing/invoices"
CONTEXT = f"{TOPIC}/context.md"


def _old_topic(title: str, summary: str) -> bytes:
    """A topic's context.md as older brv wrote it: drawn from the folder's first entry."""
    return mark(f"# Topic: invoices\n\n## Overview\n{summary}\n\n## Key Concepts\n- {title}\n\n"
                "## Related Topics\n- none yet\n").encode()


def _old_domain(topic: str) -> bytes:
    return mark(f"# Domain: billing\n\n## Purpose\nCovers the project's knowledge about billing."
                f"\n\n## Scope\nIncluded in this domain:\n- {topic}\n\n## Ownership\nNot set "
                "yet: edit this file to name the owning team.\n\n## Usage\nReference when "
                "working on billing.\n").encode()


def _commit(member: Member, files: dict[str, bytes], message: str) -> None:
    for rel, data in files.items():
        write_atomic(member.tree / rel, data)
    member.ok("vc", "add")
    member.ok("vc", "commit", "-m", message)


def _first_entry(member: Member, title: str) -> dict[str, bytes]:
    """What an older brv wrote for a first entry in billing/invoices: entry and contexts."""
    entry = member.tree / f"{TOPIC}/{title.lower().replace(' ', '_')}.md"
    return {entry.relative_to(member.tree).as_posix(): entry_bytes(title, narrative=title),
            CONTEXT: _old_topic(title, f"{title} in short."),
            "billing/context.md": _old_domain(f"invoices {title}")}


def _pull_clean(member: Member) -> None:
    pulled = member.ok("vc", "pull", "--json").json()
    assert pulled["conflicts"] == []


def test_two_old_generated_texts_added_on_both_sides_become_todays(team: Team) -> None:
    alice, bob = team.alice, team.bob
    _commit(alice, _first_entry(alice, "Invoice numbering"), "alice")
    _commit(bob, _first_entry(bob, "Invoice currency"), "bob")
    alice.ok("vc", "push")
    _pull_clean(bob)
    assert (bob.tree / CONTEXT).read_text() == context_text(TOPIC)
    assert (bob.tree / "billing/context.md").read_text() == context_text("billing")
    assert len(list((bob.tree / TOPIC).glob("invoice_*.md"))) == 2


def test_two_old_generated_texts_changed_on_both_sides_become_todays(team: Team) -> None:
    alice, bob = team.alice, team.bob
    _commit(alice, {CONTEXT: _old_topic("Base", "Base.")}, "base")
    alice.ok("vc", "push")
    bob.ok("vc", "pull")
    # older brv rewrote a generated file when its first entry was deleted or merged away
    _commit(alice, {CONTEXT: _old_topic("Alice", "Alice's.")}, "alice")
    _commit(bob, {CONTEXT: _old_topic("Bob", "Bob's.")}, "bob")
    alice.ok("vc", "push")
    _pull_clean(bob)
    assert (bob.tree / CONTEXT).read_text() == context_text(TOPIC)


def test_in_project_old_generated_texts_on_both_sides(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, "auth/jwt/token_rotation.md")
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    members = []
    for name in ("alice", "bob"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        member.ok("vc", "init", "--in-project")
        _commit(member, _first_entry(member, f"{name} invoices"), name)
        members.append(member)
    members[0].ok("vc", "push")
    _pull_clean(members[1])
    assert (members[1].tree / CONTEXT).read_text() == context_text(TOPIC)


def test_a_persons_file_beats_a_generated_one_on_either_side(team: Team) -> None:
    alice, bob = team.alice, team.bob
    words = b"# Topic: invoices\n\n## Overview\nOwned by the payments team; see RFC 12.\n"
    _commit(alice, {CONTEXT: words}, "alice writes the topic's context by hand")
    bob.ok("curate", "add", TOPIC, "--title", "Invoice currency", "--content", "EUR or USD.")
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob")
    assert is_generated((bob.tree / CONTEXT).read_bytes())
    alice.ok("vc", "push")
    _pull_clean(bob)  # theirs is the person's file
    assert (bob.tree / CONTEXT).read_bytes() == words
    bob.ok("vc", "push")
    _commit(alice, {"billing/context.md": _old_domain("x")}, "alice: an old generated domain")
    alice.ok("vc", "pull")  # ours is the person's file, and stays
    assert (alice.tree / CONTEXT).read_bytes() == words


def test_a_persons_edit_against_a_regenerated_file_keeps_the_words(team: Team) -> None:
    alice, bob = team.alice, team.bob
    base = _old_topic("Base", "Base.")
    _commit(alice, {CONTEXT: base}, "base")
    alice.ok("vc", "push")
    bob.ok("vc", "pull")
    edited = base.decode().replace("- none yet", "- billing/refunds").encode()
    _commit(alice, {CONTEXT: edited}, "alice names a related topic")
    _commit(bob, {CONTEXT: _old_topic("Bob", "Bob's.")}, "bob's brv rewrote it")
    alice.ok("vc", "push")
    _pull_clean(bob)
    assert (bob.tree / CONTEXT).read_bytes() == edited


def test_once_settled_files_people_edit_merge_by_section(team: Team) -> None:
    alice, bob = team.alice, team.bob
    _commit(alice, _first_entry(alice, "Invoice numbering"), "alice")
    _commit(bob, _first_entry(bob, "Invoice currency"), "bob")
    alice.ok("vc", "push")
    _pull_clean(bob)
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    base = context_text("billing")
    assert alice.text("billing/context.md") == base
    ownership = "Not set yet: edit this file to name the owning team."
    usage = "Reference when working on billing."
    _commit(alice, {"billing/context.md": base.replace(ownership, "Payments team.").encode()},
            "alice: owner")
    _commit(bob, {"billing/context.md": base.replace(usage, "Read before a refund.").encode()},
            "bob: usage")
    alice.ok("vc", "push")
    _pull_clean(bob)
    text = bob.text("billing/context.md")
    assert "Payments team." in text
    assert "Read before a refund." in text
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    _commit(alice, {"billing/context.md": text.replace("Payments team.", "Team A.").encode()},
            "alice")
    alice.ok("vc", "push")
    _commit(bob, {"billing/context.md": text.replace("Payments team.", "Team B.").encode()},
            "bob")
    pulled = bob.brv("vc", "pull", "--json").json()
    assert [c["path"] for c in pulled["conflicts"]] == ["billing/context.md"]
    clashed = bob.text("billing/context.md")
    assert clashed.count("<<<<<<<") == 1
    block = clashed.split("<<<<<<<")[1].split(">>>>>>>")[0]
    assert "Team A." in block
    assert "Team B." in block
    assert "Read before a refund." in clashed.replace(block, "")  # bob's section, no markers


def test_the_driver_finds_the_folder_in_any_repository_path(tmp_path: Path) -> None:
    """git's %P: standalone, in-project, and a project in a sub-folder of its repository."""
    from brv_vc.services.vc import run_merge_driver

    for prefix in ("", ".brv/context-tree/", "services/api/.brv/context-tree/"):
        base, ours, theirs = (tmp_path / name for name in ("base", "ours", "theirs"))
        base.write_bytes(b"")
        ours.write_bytes(_old_topic("Numbering", "Numbers."))
        theirs.write_bytes(_old_topic("Currency", "Currencies."))
        result = run_merge_driver(base, ours, theirs, f"{prefix}{CONTEXT}")
        assert (result.method, result.conflicts) == ("generated", ())
        assert ours.read_text() == context_text(TOPIC)
