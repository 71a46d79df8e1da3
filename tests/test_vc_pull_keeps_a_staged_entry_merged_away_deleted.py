"""A staged new entry that a curate then MERGEd away stays deleted through a failed pull.

Issue 35's one lost write of 8 x 50 (standalone, clone 4, ``note_4_89.md``): ``brv vc add``
staged a new entry, ``brv vc commit`` was killed, the agent's curate MERGEd the entry into
another (file deleted, "success"), then ``brv vc pull`` needed a true merge. git's merge
strategies refuse a staged change, and git 2.37+ puts the state back with ``git stash
create`` + ``git reset --hard`` + ``git stash apply --index``; the stash records a file staged
as new and deleted since as present, so the merged-away entry came back (reflog "merge
<sha>: updating HEAD", HEAD unchanged) and the next commit shared it again. brv now refuses
such a merge before git runs, naming the staged paths; nothing changes on disk.
"""

from __future__ import annotations

import json

from vc_helpers import Team, team  # noqa: F401

SOURCE = "notes/bob/draft.md"
TARGET = "notes/bob/notes.md"


def test_a_pull_with_a_staged_entry_merged_away_never_brings_it_back(
        team: Team) -> None:  # noqa: F811
    alice, bob = team.alice, team.bob
    alice.write("notes/alice/notes.md", "Alice's notes", summary="alice's own entry")
    alice.sync("alice's entry")
    bob.write(TARGET, "Bob's notes", summary="bob's notes", facts=["kept"])
    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "bob's notes")  # not pushed: bob's pull is a true merge

    bob.write(SOURCE, "Bob's draft", summary="a draft to fold in", facts=["folded"])
    bob.ok("vc", "add")  # staged; the commit that would follow is killed (never ran)
    ops = [{"type": "MERGE", "path": SOURCE, "target": TARGET, "reason": "one subject"}]
    merged = bob.brv("curate", "--ops", "-", "--json", input=json.dumps(ops))
    assert merged.exit_code == 0, merged.stdout + merged.stderr
    assert not (bob.tree / SOURCE).exists(), merged.stdout
    head = bob.git("rev-parse", "HEAD")
    staged = bob.git("write-tree")

    pulled = bob.fails("vc", "pull")
    assert not (bob.tree / SOURCE).exists(), "the pull brought a merged-away entry back"
    assert "changes are staged but not committed" in pulled.stderr, pulled.stderr
    assert SOURCE in pulled.stderr
    assert "brv vc commit" in pulled.stderr
    assert (bob.git("rev-parse", "HEAD"), bob.git("write-tree")) == (head, staged)

    bob.ok("vc", "add")
    bob.ok("vc", "commit", "-m", "the draft folded into the notes")
    bob.ok("vc", "pull")
    bob.ok("vc", "push")
    alice.ok("vc", "pull")
    for member in (alice, bob):
        assert not (member.tree / SOURCE).exists(), member.name
        assert SOURCE not in member.git("ls-tree", "-r", "--name-only", "HEAD")
        assert "folded" in member.text(TARGET), member.name
        assert (member.tree / "notes/alice/notes.md").exists(), member.name
