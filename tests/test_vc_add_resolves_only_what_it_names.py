"""brv vc add of one of two conflicted files marks only that one resolved; the other stays unmerged."""

from __future__ import annotations

from vc_helpers import Team, team  # noqa: F401

ROT = "auth/jwt/token_rotation.md"
KEYS = "auth/jwt/signing_keys.md"


def test_add_of_one_conflicted_file_leaves_the_other_unmerged(team: Team) -> None:  # noqa: F811
    team.alice.write(KEYS, "Signing keys", summary="Where keys live")
    team.alice.sync("keys")
    team.bob.ok("vc", "pull")
    team.alice.edit(ROT, title="Token rotation (alice)")
    team.alice.edit(KEYS, title="Signing keys (alice)")
    team.alice.sync("alice titles")
    team.bob.edit(ROT, title="Token rotation (bob)")
    team.bob.edit(KEYS, title="Signing keys (bob)")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob titles")
    team.bob.fails("vc", "pull")
    for path in (ROT, KEYS):  # both resolved by hand, only one of them added
        text = team.bob.text(path)
        block = text[text.index("<<<<<<<"):text.index(">>>>>>> theirs\n") + 15]
        (team.bob.tree / path).write_text(text.replace(block, 'title: "Agreed"\n'))
    first = team.bob.ok("vc", "add", ROT, "--json").json()
    assert first["resolved"] == [ROT]
    assert first["still_conflicted"] == []
    assert team.bob.git("ls-files", "-u", "--", KEYS).strip()  # git still records it
    team.bob.fails("vc", "merge", "--continue")
    second = team.bob.ok("vc", "add", "--json").json()
    assert second["resolved"] == [KEYS]
    again = team.bob.ok("vc", "add", "--json").json()
    assert again["resolved"] == []  # nothing was unmerged any more
    team.bob.ok("vc", "merge", "--continue")
    assert "Agreed" in team.bob.text(KEYS)
