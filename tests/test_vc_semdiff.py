"""Semantic diffs: the pure comparison, the renderings and ``brv vc diff`` over git states."""

from __future__ import annotations

from pathlib import Path

import vc_helpers
from vc_helpers import Team, entry_bytes, make_member

from brv_vc.vc.semdiff import FieldChange, diff_entry

ROT = "auth/jwt/token_rotation.md"
BASE = entry_bytes("Rotation", summary="s", tags=("a", "b"), narrative="one\ntwo",
                   facts=["f1"], relations=["auth/jwt/keys.md"])

team = vc_helpers.team


def test_reflow_and_key_order_are_no_change() -> None:
    reflowed = (
        b"---\nupdatedAt: '2025-03-01T10:00:00Z'\ntitle: Rotation\nsummary: s\n"
        b"tags:\n  - b\n  - a\nkeywords: []\nrelated: []\ncreatedAt: 2025-03-01T10:00:00Z\n---\n"
        + BASE.split(b"---\n", 2)[2]
    )
    diff = diff_entry(ROT, BASE, reflowed)
    assert diff.empty
    assert diff.fields == ()
    assert diff.sections == ()


def test_fields_sections_and_relations() -> None:
    new = entry_bytes("Rotation v2", summary="s", tags=("a", "c"), narrative="one\nTWO",
                      facts=["f1"], relations=["auth/jwt/signing.md"])
    diff = diff_entry(ROT, BASE, new)
    assert diff.status == "modified"
    assert diff.title == "Rotation v2"
    assert FieldChange("title", "Rotation", "Rotation v2") in diff.fields
    tags = next(f for f in diff.fields if f.key == "tags")
    assert (tags.added, tags.removed) == (("c",), ("b",))
    narrative = next(s for s in diff.sections if s.name == "Narrative")
    assert narrative.change == "changed"
    assert "-two" in narrative.lines
    assert "+TWO" in narrative.lines
    assert diff.relations_added == ("auth/jwt/signing.md",)
    assert diff.relations_removed == ("auth/jwt/keys.md",)
    assert not any(s.name == "Facts" for s in diff.sections)


def test_added_removed_sections_and_unknown_keys() -> None:
    new = entry_bytes("Rotation", summary="s", tags=("a", "b"), narrative="one\ntwo",
                      relations=["auth/jwt/keys.md"])
    new = new.replace(b"---\n\n", b"owner: team-a\n---\n\n", 1)
    new = new.replace(b"## Relations", b"## Caveats\nnone\n\n## Relations")
    diff = diff_entry(ROT, BASE, new)
    changes = {(s.name, s.change) for s in diff.sections}
    assert changes == {("Facts", "removed"), ("Caveats", "added")}
    assert FieldChange("owner", None, "team-a") in diff.fields


def test_added_removed_and_unparseable_files() -> None:
    added = diff_entry(ROT, None, BASE)
    assert added.status == "added"
    assert [s.name for s in added.sections] == [
        "Narrative", "Facts", "Relations"]
    assert diff_entry(ROT, BASE, None).status == "removed"
    broken = diff_entry(ROT, BASE, b"---\ntitle: [unclosed\n---\n")
    assert broken.note
    assert broken.note.startswith("does not parse")
    assert broken.lines


def test_vc_diff_modes_and_formats(team: Team) -> None:
    team.alice.edit(ROT, tags=("auth", "jwt", "security"), title="Token rotation v2")
    unstaged = team.alice.ok("vc", "diff").stdout
    assert "modified  auth/jwt/token_rotation.md" in unstaged
    assert "tags: +security" in unstaged
    assert team.alice.ok("vc", "diff", "--staged", "--json").json()["entries"] == []
    team.alice.ok("vc", "add")
    staged = team.alice.ok("vc", "diff", "--staged", "--format", "json").json()
    assert staged["counts"] == {"modified": 1}
    assert {f["key"] for f in staged["entries"][0]["fields"]} == {"title", "tags"}
    team.alice.ok("vc", "commit", "-m", "v2")
    ranged = team.alice.ok("vc", "diff", "HEAD~1..HEAD", "--json").json()
    assert ranged["entries"][0]["title"] == "Token rotation v2"
    assert team.alice.ok("vc", "diff", "HEAD").stdout.startswith("No knowledge changes")


def test_vc_diff_markdown_for_a_pull_request(team: Team) -> None:
    team.alice.ok("vc", "checkout", "-b", "review")
    team.alice.edit(ROT, tags=("auth", "jwt", "security"))
    team.alice.write("auth/jwt/signing_keys.md", "Signing keys", facts=["rotate monthly"])
    (team.alice.tree / "auth/tokens").mkdir(parents=True)
    team.alice.ok("vc", "add")
    team.alice.ok("vc", "commit", "-m", "review")
    markdown = team.alice.ok("vc", "diff", "main..review", "--format", "markdown").stdout
    assert markdown.startswith("## Knowledge changes\n")
    assert "| Change | Entry | Title | What changed |" in markdown
    assert "| added | `auth/jwt/signing_keys.md` | Signing keys |" in markdown
    summary = "<details><summary><code>auth/jwt/token_rotation.md</code> (modified)</summary>"
    assert summary in markdown
    assert "- `tags`: +`security`" in markdown
    assert "2 entries changed: 1 added, 1 modified" in markdown


def test_rename_is_reported_as_renamed(team: Team) -> None:
    new = "auth/tokens/token_rotation.md"
    (team.alice.tree / new).parent.mkdir(parents=True)
    (team.alice.tree / ROT).rename(team.alice.tree / new)
    team.alice.ok("vc", "add")
    entries = team.alice.ok("vc", "diff", "--staged", "--json").json()["entries"]
    assert [(e["status"], e["old_path"], e["path"]) for e in entries] == [("renamed", ROT, new)]


def test_plain_git_diff_uses_the_textconv(team: Team) -> None:
    team.alice.edit(ROT, tags=("auth", "jwt", "security"))
    out = team.alice.git("diff")
    assert "+  - security" in out
    assert "tags:" in out
    raw = team.alice.ok("vc", "textconv", str(team.alice.tree / ROT)).stdout
    assert raw.startswith("title: Token rotation\n")


def test_textconv_of_an_unparseable_file_is_its_raw_text(team: Team) -> None:
    broken = team.alice.tree / "auth/jwt/broken.md"
    broken.write_text("---\ntitle: [unclosed\n---\nbody\n")
    assert team.alice.ok("vc", "textconv", str(broken)).stdout == broken.read_text()


def test_markdown_diff_escapes_html_and_pipes_in_titles(tmp_path: Path) -> None:
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Tokens <details> & a|b")
    alice.ok("vc", "add")
    out = alice.ok("vc", "diff", "--staged", "--format", "markdown").stdout
    row = next(line for line in out.splitlines() if ROT in line and line.startswith("|"))
    assert "Tokens &lt;details&gt; &amp; a\\|b" in row
    assert "<details>" not in row
