"""Brv-Archived trailers are added to a written message, never to an empty one."""

from __future__ import annotations

from brv_vc.vc.archived import parse_trailers, with_trailers

EDITOR = "# Please enter the commit message for your changes.\n#\n# Changes to be committed:\n"


def test_trailers_go_after_the_message_and_before_git_comments() -> None:
    out = with_trailers("archive old drafts\n\n" + EDITOR, ["a/b/x.md", "a/b/y.md"])
    assert out == (
        "archive old drafts\n\nBrv-Archived: a/b/x.md\nBrv-Archived: a/b/y.md\n\n" + EDITOR
    )
    assert parse_trailers(out) == ["a/b/x.md", "a/b/y.md"]


def test_a_message_without_text_stays_empty_so_git_still_aborts() -> None:
    assert with_trailers(EDITOR, ["a/b/x.md"]) == EDITOR
    assert with_trailers("\n\n", ["a/b/x.md"]) == "\n\n"


def test_paths_already_named_are_not_repeated() -> None:
    message = "archive x\n\nBrv-Archived: a/b/x.md\n"
    assert with_trailers(message, ["a/b/x.md"]) == message
    assert parse_trailers(with_trailers(message, ["a/b/x.md", "c/d/z.md"])) == [
        "a/b/x.md", "c/d/z.md"]
