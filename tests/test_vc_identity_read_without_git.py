"""The nested repository's own identity, read from .git/config in Python, is what git reads;
git is asked for files this does not follow (includes, quoting, escapes, a worktree)."""

from __future__ import annotations

from pathlib import Path

import pytest
from vc_helpers import git

from brv_vc.vc.repo import _identity, _local_identity

BASE = "[core]\n\trepositoryformatversion = 0\n\tbare = false\n"
PLAIN = [
    "",
    "[user]\n\tname = Knowledge Bot\n\temail = bot@kb.example\n",
    "[User]\n\tNAME =   Spaced  Name  \n[other]\n\tname = not me\n",
    "[user]\n\tname = First\n[user]\n\tname = Second\n\temail =\n",
    '[user "sub"]\n\tname = a subsection\n[user]\n\temail = e@x.example\n',
    "# a comment\n; another\n[user]\n\tname\n\temail = only@email.example\n",
    "[merge \"brv\"]\n\tdriver = a=b c\n[user]\n\tname = After A Driver\n",
    "[user]\r\n\tname = José Núñez\r\n\temail = jn@kb.example\r\n",
]
ODD = [
    '[user]\n\tname = "Quoted Name"\n',
    "[user]\n\tname = Back\\\\slash\n",
    "[user]\n\tname = Name ; comment\n",
    "[user] name = Same Line\n",
    "[include]\n\tpath = other.config\n",
    "[user]\n\tname = Continued \\\n\tline\n",
    "[user]\n\tname = Split\u2028Line\n",
    "[user]\n\tname = Form\x0cfeed\n",
]


@pytest.mark.parametrize("extra", PLAIN)
def test_plain_files_read_as_git_reads_them(tmp_path: Path, extra: str) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / ".git/config").write_text(BASE + extra, encoding="utf-8")
    assert _local_identity(tmp_path) == _identity(tmp_path, "--local")


@pytest.mark.parametrize("extra", ODD)
def test_files_this_does_not_follow_are_left_to_git(tmp_path: Path, extra: str) -> None:
    git(tmp_path, "init", "-q")
    (tmp_path / ".git/config").write_text(BASE + extra, encoding="utf-8")
    assert _local_identity(tmp_path) is None


def test_a_byte_order_mark_is_left_to_git(tmp_path: Path) -> None:
    """git skips it and reads the [user] header after it; a plain reader would not."""
    git(tmp_path, "init", "-q")
    (tmp_path / ".git/config").write_text("\ufeff[user]\n\tname = Bom User\n" + BASE,
                                         encoding="utf-8")
    assert _local_identity(tmp_path) is None
    assert _identity(tmp_path, "--local") == {"name": "Bom User"}


def test_a_worktree_git_file_is_left_to_git(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()
    git(main, "init", "-q", "-b", "main")
    git(main, "commit", "-q", "--allow-empty", "-m", "first")
    git(main, "worktree", "add", "-q", str(tmp_path / "other"))
    assert _local_identity(tmp_path / "other") is None
