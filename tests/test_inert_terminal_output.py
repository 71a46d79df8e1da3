"""Control characters from entries, titles, paths, commits and remotes never reach the terminal raw."""

from __future__ import annotations

import json
import re

import pytest
import vc_helpers
from conftest import brv_process
from vc_helpers import git

from brv_vc.cli.inert import inert

team = vc_helpers.team

HOSTILE = "Esc \x1b]0;PWNED\x07\x1b[2J"  # retitles the terminal, then clears it
BODY = "escqq body \x1b[31mred\u009b[2J \u202eevil\x7f\rover"
# ESC, BEL, the other C0 controls but newline/tab, DEL, C1 and the bidi overrides/isolates
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")


def assert_inert(*texts: str) -> None:
    for text in texts:
        found = RAW.search(text)
        assert found is None, f"raw {found.group()!r} in {text!r}"


def test_inert_escapes_controls_and_keeps_layout() -> None:
    assert inert("a\tb\nc\r\nd") == "a\tb\nc\r\nd"
    assert inert(HOSTILE) == "Esc \\u001b]0;PWNED\\u0007\\u001b[2J"
    assert inert("x\u009by\u202ez\x7f\rw") == "x\\u009by\\u202ez\\u007f\\u000dw"
    assert inert("plain ünïcode — ok") == "plain ünïcode — ok"


@pytest.fixture
def hostile(seeded, brv):
    result = brv("curate", "add", "auth/jwt", "--title", HOSTILE, "--content", BODY,
                 "--reason", "r", "--json", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    seeded.hostile_path = result.json()["applied"][0]["file"]
    return seeded


def test_search_show_query_tree_print_no_raw_control(hostile, brv) -> None:
    root = hostile.root
    outputs = []
    for args in (("search", "escqq"), ("show", hostile.hostile_path), ("query", "escqq body"),
                 ("tree",), ("relations", hostile.hostile_path), ("review", "pending"),
                 ("dream", "scan"), ("dream", "--force"), ("dream", "--log")):
        result = brv(*args, cwd=root)
        assert result.exit_code == 0, (args, result.stderr)
        outputs += [result.stdout, result.stderr]
    assert "PWNED" in "".join(outputs)  # the text is shown, only its controls are escaped
    assert "\\u001b]0;PWNED\\u0007" in "".join(outputs)
    assert_inert(*outputs)


def test_the_fast_path_of_a_real_process_is_inert(hostile) -> None:
    for args in (("search", "escqq"), ("query", "escqq body")):
        proc = brv_process(*args, cwd=hostile.root)
        assert proc.exit_code == 0, proc.stderr
        assert "PWNED" in proc.stdout
        assert_inert(proc.stdout, proc.stderr)


def test_json_keeps_the_characters_as_json_escapes(hostile, brv) -> None:
    for args in (("search", "escqq", "--json"), ("show", hostile.hostile_path, "--json")):
        result = brv(*args, cwd=hostile.root)
        assert_inert(result.stdout)
        doc = json.loads(result.stdout)  # still valid JSON, and the same text
        text = json.dumps(doc, ensure_ascii=False)
        assert "PWNED" in text
    proc = brv_process("search", "escqq", "--json", cwd=hostile.root)
    assert_inert(proc.stdout)
    assert json.loads(proc.stdout)["results"][0]["title"].startswith("Esc \x1b]0;PWNED\x07")


def test_errors_naming_a_hostile_path_are_inert(seeded, brv) -> None:
    result = brv("show", "auth/jwt/\x1b]0;PWNED\x07.md", cwd=seeded.root)
    assert result.exit_code == 1
    assert "PWNED" in result.stderr
    assert_inert(result.stdout, result.stderr)


def test_commit_messages_and_files_from_a_remote_are_inert(team) -> None:
    alice, bob = team.alice, team.bob
    alice.write("auth/jwt/evil.md", HOSTILE, narrative=BODY)
    alice.ok("vc", "add")
    # a teammate commits with plain git: the message is whatever they typed
    git(alice.tree, "commit", "-q", "-m", f"subject {HOSTILE}\n\nbody \x1b[2J")
    alice.ok("vc", "push")
    outputs = []
    for args in (("vc", "pull"), ("vc", "log"), ("vc", "diff", "HEAD~1"), ("show",
                 "auth/jwt/evil.md"), ("search", "escqq")):
        result = bob.ok(*args)
        outputs += [result.stdout, result.stderr]
    assert "PWNED" in outputs[2]  # vc log shows the subject
    bob.write("auth/jwt/evil.md", HOSTILE + " changed", narrative=BODY + " more")
    for args in (("vc", "status"), ("vc", "diff")):
        result = bob.ok(*args)
        outputs += [result.stdout, result.stderr]
    assert_inert(*outputs)
    log = bob.ok("vc", "log", "--json").json()
    assert any("\x1b]0;PWNED\x07" in c["subject"] for c in log["commits"])
