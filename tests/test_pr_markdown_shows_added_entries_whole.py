"""An added entry's PR markdown and text diff carry its title, summary, tags, related and content."""

from __future__ import annotations

from vc_helpers import entry_bytes

from brv_vc.vc.diff_render import render_markdown, render_text
from brv_vc.vc.semdiff import diff_entry

PATH = "auth/jwt/key_signing.md"
DATA = entry_bytes("Key signing", summary="Keys are RS256.", tags=("security", "keys"),
                   narrative="Rotate the signing key yearly.", relations=["auth/jwt/rotation.md"])


def test_added_entry_markdown_holds_everything() -> None:
    diff = diff_entry(PATH, None, DATA)
    markdown = render_markdown([diff], "HEAD", "index")
    for text in ("Key signing", "Keys are RS256.", "+`security` +`keys`",
                 "auth/jwt/rotation.md", "Rotate the signing key yearly."):
        assert text in markdown, text
    plain = render_text([diff], "HEAD", "index")
    assert "tags: +security +keys" in plain
    assert "relation +@auth/jwt/rotation.md" in plain


def test_removed_entry_says_what_is_lost() -> None:
    diff = diff_entry(PATH, DATA, None)
    assert diff.relations_removed == ("auth/jwt/rotation.md",)
    assert {f.key: f.removed for f in diff.fields}["tags"] == ("security", "keys")
    assert "-`security` -`keys`" in render_markdown([diff], "HEAD", "index")


def test_the_count_is_of_entries_not_of_files() -> None:
    added = diff_entry(PATH, None, DATA)
    ignore = diff_entry(".gitignore", None, b"_index.md\n")
    text = render_text([added, ignore], "HEAD", "index")
    assert text.endswith("1 entry changed: 1 added; 1 other file (not knowledge)")
