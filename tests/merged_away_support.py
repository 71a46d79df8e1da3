"""Two entries, one to be MERGEd into the other, and the branch and team steps that make a
modify/delete of it: shared by the tests of the fold (``services/vc/merged_away``)."""

from __future__ import annotations

from vc_helpers import Member, Team

P = "payments/ledger/refunds.md"
T = "payments/ledger/double_entry.md"
NEW = "## Rollout\nZebrafish cutover windows close every Friday at noon."


def base(member: Member) -> None:
    """The two entries, not committed."""
    member.ok("curate", "add", "payments/ledger", "--title", "Double entry", "--content",
              "## Narrative\nEvery posting has a debit and a credit.", "--reason", "base")
    member.ok("curate", "add", "payments/ledger", "--title", "Refunds", "--content",
              "## Narrative\nRefunds post a reversing entry.", "--reason", "base")


def commit(member: Member, message: str) -> None:
    member.ok("vc", "add")
    member.ok("vc", "commit", "-m", message)


def changed_on_a_side(solo: Member, *on_main: str) -> None:
    """Branch ``side`` adds a section to P; back on main, ``curate *on_main`` is committed."""
    main = solo.git("rev-parse", "--abbrev-ref", "HEAD").strip()
    solo.git("checkout", "-q", "-b", "side")
    solo.ok("curate", "update", P, "--content", NEW, "--reason", "side change")
    commit(solo, "side: rollout")
    solo.git("checkout", "-q", main)
    solo.ok("curate", *on_main)
    commit(solo, f"main: {on_main[0]} refunds")


def changed_by_bob(team: Team, *by_alice: str) -> Member:
    """Alice pushes ``curate *by_alice``; Bob, who pulled the base, commits a change of P."""
    alice, bob = team.alice, team.bob
    base(alice)
    alice.sync("base")
    bob.ok("vc", "pull")
    alice.ok("curate", *by_alice)
    alice.sync(f"alice: {by_alice[0]} refunds")
    bob.ok("curate", "update", P, "--content", NEW, "--reason", "bob's change")
    commit(bob, "bob: rollout")
    return bob
