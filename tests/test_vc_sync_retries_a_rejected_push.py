"""brv vc sync: pulls then pushes; a push a teammate beat is pulled and pushed again up to
its bound; nothing to push and a true conflict each say so.

The race is real: a ``reference-transaction`` hook in alice's repository makes carol push
(plain git, to the same bare remote) as soon as alice's pull writes a ref, so alice's next
push is not a fast-forward and the remote rejects it.
"""

from __future__ import annotations

import random
import stat
from pathlib import Path

import vc_helpers
from vc_helpers import Member, Team, git, make_member

from brv_vc.services.vc.retry import FIRST_WAIT, backoff

team = vc_helpers.team

ROT = "auth/jwt/token_rotation.md"
ALICE = "auth/session/alice_notes.md"
CAROL = "api/errors/carol_notes.md"


def _carol(team: Team) -> Member:
    """carol, a third clone, who pushed one entry of her own."""
    carol = make_member(team.remote.parent, "carol")
    carol.ok("vc", "clone", str(team.remote))
    carol.write(CAROL, "Carol's notes", facts=["carol was here"])
    carol.sync("carol: notes")
    return carol


def _race(member: Member, rival: Member, *, once: bool) -> Path:
    """Makes ``rival`` push an empty commit whenever ``member``'s git writes a ref.

    ``once``: only the first time. Returns the file counting the rival's pushes.
    """
    count = member.root / "rival-pushes"
    hook = Path(member.git("rev-parse", "--absolute-git-dir").strip()) / "hooks"
    script = hook / "reference-transaction"
    guard = f'[ -s "{count}" ] && exit 0\n' if once else ""
    script.write_text(
        "#!/bin/sh\n"
        '[ "$1" = committed ] || exit 0\n'
        "cat >/dev/null\n"
        f"{guard}"
        "unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX GIT_QUARANTINE_PATH\n"
        f'cd "{rival.tree}" || exit 0\n'
        'git commit -q --allow-empty --no-verify -m "rival" || exit 0\n'
        "git push -q --no-verify origin HEAD:main >/dev/null 2>&1 || exit 0\n"
        f'echo x >> "{count}"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return count


def _commit_alice(team: Team) -> str:
    team.alice.write(ALICE, "Alice's notes", facts=["alice was here"])
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "alice: notes")
    return team.alice.git("rev-parse", "HEAD").strip()


def _on_remote(team: Team, commit: str) -> bool:
    return commit in git(team.remote, "rev-list", "main").split()


def test_a_rejected_push_is_pulled_and_pushed_again(team: Team) -> None:
    carol = _carol(team)
    commit = _commit_alice(team)
    pushes = _race(team.alice, carol, once=True)
    payload = team.alice.ok("vc", "sync", "--max-wait", "0", "--json").json()
    assert pushes.read_text().count("x") == 1  # the rival did beat alice's first push
    assert payload["ok"] is True
    assert payload["tries"] == 2
    assert payload["remote"] == "origin"
    assert payload["branch"] == "main"
    assert CAROL in payload["arrived"]
    assert ALICE in payload["left"]
    assert CAROL not in payload["left"]
    assert payload["commits"] >= 2  # alice's commit and the merge of carol's
    assert payload["conflicts"] == []
    assert _on_remote(team, commit)
    assert team.alice.git("rev-parse", "HEAD").strip() == git(
        team.remote, "rev-parse", "main").strip()


def test_sync_text_names_arrivals_departures_and_tries(team: Team) -> None:
    carol = _carol(team)
    _commit_alice(team)
    _race(team.alice, carol, once=True)
    lines = team.alice.ok("vc", "sync", "--max-wait", "0").stdout.splitlines()
    assert lines[0].startswith("Pulled ")
    assert CAROL in lines[0]
    assert lines[1].startswith("Pushed ")
    assert lines[1].endswith(" to origin/main.")
    assert lines[2].startswith("Took 2 tries (teammates pushed first; ")


def test_sync_gives_up_after_its_bound_and_keeps_the_commit(team: Team) -> None:
    carol = _carol(team)
    commit = _commit_alice(team)
    pushes = _race(team.alice, carol, once=False)
    refused = team.alice.fails("vc", "sync", "--tries", "3", "--max-wait", "0")
    assert "sync gave up: the push was rejected 3 times in a row" in refused.stderr
    assert "nothing was lost" in refused.stderr
    assert "brv vc sync" in refused.stderr.split("gave up", 1)[1]
    assert pushes.read_text().count("x") >= 3
    assert not _on_remote(team, commit)
    assert commit in team.alice.git("rev-list", "HEAD").split()
    assert (team.alice.tree / ALICE).is_file()
    assert (team.alice.tree / CAROL).is_file()  # what arrived is merged


def test_nothing_to_push_says_so(team: Team) -> None:
    team.alice.write(ALICE, "Alice's notes", facts=["alice was here"])
    team.alice.sync("alice: notes")
    out = team.bob.ok("vc", "sync").stdout.splitlines()
    assert out == [f"Pulled 1 file from origin/main: {ALICE}", "Nothing to push."]
    again = team.bob.ok("vc", "sync", "--json").json()
    assert (again["arrived"], again["commits"], again["left"], again["tries"]) == ([], 0, [], 1)
    assert team.bob.ok("vc", "sync").stdout.splitlines() == [
        "Nothing new from origin/main.", "Nothing to push."]


def test_a_true_conflict_stops_the_sync_and_says_how_to_go_on(team: Team) -> None:
    team.alice.edit(ROT, title="Token rotation (alice)")
    team.alice.sync("alice title")
    remote_before = git(team.remote, "rev-parse", "main").strip()
    team.bob.edit(ROT, title="Token rotation (bob)")
    team.bob.ok("vc", "add")
    team.bob.ok("vc", "commit", "-m", "bob title")
    payload = team.bob.fails("vc", "sync", "--json").json()
    assert payload["ok"] is False
    assert [c["path"] for c in payload["conflicts"]] == [ROT]
    assert (payload["commits"], payload["left"]) == (0, [])
    assert git(team.remote, "rev-parse", "main").strip() == remote_before
    team.bob.ok("vc", "merge", "--abort")
    text = team.bob.fails("vc", "sync").stdout
    assert text.startswith("Sync stopped: pulling origin/main met true conflicts")
    assert f"both modified:   {ROT}" in text
    assert "'brv vc merge --continue', then run 'brv vc sync' again" in text


def test_bad_bounds_are_refused_before_anything_runs(team: Team) -> None:
    head = team.bob.git("rev-parse", "HEAD")
    assert "--tries" in team.bob.fails("vc", "sync", "--tries", "0", code=2).stderr
    assert "--max-wait" in team.bob.fails("vc", "sync", "--max-wait", "-1", code=2).stderr
    assert team.bob.git("rev-parse", "HEAD") == head


def test_backoff_doubles_up_to_the_longest_wait_with_a_random_half() -> None:
    rng = random.Random(7)
    for attempt in range(1, 12):
        ceiling = min(2.0, FIRST_WAIT * 2 ** (attempt - 1))
        waits = [backoff(attempt, 2.0, rng) for _ in range(50)]
        assert all(ceiling / 2 <= w <= ceiling for w in waits)
        assert len(set(waits)) > 1  # jittered: rivals drift apart
    assert backoff(3, 0.0, rng) == 0.0


def test_a_push_the_remote_refuses_because_its_branch_moved_is_retried(team: Team) -> None:
    """The remote's branch moves after it advertised it and before it updates it (a push
    that landed in between): git says 'remote rejected ... is at X but expected Y'."""
    hook = team.remote / "hooks" / "pre-receive"
    done = team.remote / "moved-once"
    hook.write_text(
        "#!/bin/sh\n"
        "cat >/dev/null\n"
        f'[ -e "{done}" ] && exit 0\n'
        f'touch "{done}"\n'
        "unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES\n"
        "old=$(git rev-parse refs/heads/main)\n"
        'new=$(git commit-tree -p "$old" -m rival "$old^{tree}")\n'
        'git update-ref refs/heads/main "$new" "$old"\n'
    )
    hook.chmod(hook.stat().st_mode | stat.S_IXUSR)
    commit = _commit_alice(team)
    payload = team.alice.ok("vc", "sync", "--max-wait", "0", "--json").json()
    assert done.exists()
    assert payload["tries"] == 2
    assert _on_remote(team, commit)
    assert git(team.remote, "log", "-1", "--format=%s", "main^2").strip() == "rival"
