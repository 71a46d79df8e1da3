"""Every reader of conflict markers gives the one rule's answer (``format/conflicts.py``):
parse, curate's check, ``vc add``, ``vc status``, the pre-commit check, commit/push/pre-push
and the ``git grep`` of the work tree, the index and a commit; and plain ``git commit`` and
``brv vc push`` agree with curate on the two texts where they used to differ."""

from __future__ import annotations

from pathlib import Path

import pytest
from vc_helpers import Member, git, standalone_member

from brv_vc.errors import FormatError
from brv_vc.format.conflicts import conflict_line_in
from brv_vc.format.entry import parse_entry
from brv_vc.services.curate.check import _refuse_marker_blocks
from brv_vc.services.curate.plan import Plan
from brv_vc.services.vc import status
from brv_vc.services.vc.changes import _grep_markers
from brv_vc.services.vc.checks import blob_problem
from brv_vc.services.vc.markers import conflict_marker_files, marker_files_in
from brv_vc.services.vc.staging import _with_markers
from brv_vc.tree.layout import Kind
from brv_vc.tree.project import Project
from brv_vc.vc import git as gitmod
from brv_vc.vc.repo import locate

# name -> (text, the line opening a conflict block, or None: markdown)
CASES: dict[str, tuple[bytes, int | None]] = {
    "triplet": (b"a\n<<<<<<< ours\nx\n=======\ny\n>>>>>>> theirs\n", 2),
    "diff3": (b"<<<<<<< ours\nx\n||||||| base\nb\n=======\ny\n>>>>>>> theirs\n", 1),
    "bare": (b"<<<<<<<\n=======\n>>>>>>>\n", 1),
    "crlf": (b"<<<<<<< a\r\n=======\r\n>>>>>>> b\r\n", 1),
    "second_block": (b">>>>>>> x\n=======\n<<<<<<< a\nb\n=======\nc\n>>>>>>> d\n", 3),
    "lone_start": (b"# Git\nA conflict begins with:\n\n<<<<<<< HEAD\n\nthen your side.\n", None),
    "lone_end": (b"text\n>>>>>>> theirs\n", None),
    "lone_base": (b"text\n||||||| base\n", None),
    "start_and_end": (b"<<<<<<< ours\nx\n>>>>>>> theirs\n", None),
    "out_of_order": (b">>>>>>> b\n=======\n<<<<<<< a\n", None),
    "setext": (b"Title\n=======\nbody\n", None),
    "setext_eight": (b"<<<<<<<< arrows\nTitle\n========\n>>>>>>>> arrows\n", None),
    "eight_middle": (b"<<<<<<< a\nx\n========\ny\n>>>>>>> b\n", None),
    "six": (b"<<<<<< a\n=======\n>>>>>> b\n", None),
    "tight": (b"<<<<<<<a\n=======\n>>>>>>>b\n", None),
    "indented": (b" <<<<<<< a\n=======\n>>>>>>> b\n", None),
    "mid_line": (b"x <<<<<<< a\n=======\nx >>>>>>> b\n", None),
    "binary": (b"\0<<<<<<< a\n=======\n>>>>>>> b\n", None),
    "plain": (b"---\ntitle: \"x\"\n---\nbody\n", None),
}
WITH_BLOCK = sorted(f"notes/{n}.md" for n, (_, line) in CASES.items() if line is not None)


def test_the_rule_gives_the_pinned_answers() -> None:
    assert {n: conflict_line_in(t) for n, (t, _) in CASES.items()} == {
        n: line for n, (_, line) in CASES.items()}


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_in_process_readers_agree(name: str) -> None:
    text, line = CASES[name]
    if b"\0" not in text:
        try:
            parse_entry(text, file="x.md", stem="x")
            parsed = None
        except FormatError as error:
            parsed = int(error.message.rsplit(" ", 1)[1]) if "conflict" in error.message else None
        assert parsed == line
    try:
        _refuse_marker_blocks(Plan(action="added", file="a/b/x.md", writes=(("a/b/x.md", text),)))
        curated = None
    except FormatError as error:
        curated = int(error.message.split()[1])
    assert curated == line
    problem = blob_problem("a/b/x.md", text, Kind.OTHER)
    assert (problem.message if problem else None) == (
        None if line is None else f"has a merge conflict marker at line {line}")


@pytest.fixture
def solo(tmp_path: Path) -> Member:
    member = standalone_member(tmp_path)
    (member.tree / "notes").mkdir()
    for name, (text, _) in CASES.items():
        (member.tree / "notes" / f"{name}.md").write_bytes(text)
    return member


def test_the_git_readers_agree(solo: Member) -> None:
    repo = locate(Project(solo.root))
    names = [f"notes/{n}.md" for n in sorted(CASES)]
    assert [h.path for h in _with_markers(repo, names)] == WITH_BLOCK  # vc add's warning
    git(solo.tree, "add", "-f", "--", *names)
    assert sorted(status(repo).markers) == WITH_BLOCK  # vc status, changed files
    staged = gitmod.staged_entries(repo.workdir, None, None)
    assert sorted(marker_files_in(repo, staged)) == WITH_BLOCK  # commit, push, pre-push
    assert conflict_marker_files(repo, "index") == WITH_BLOCK
    assert conflict_marker_files(repo, "worktree") == WITH_BLOCK
    git(solo.tree, "commit", "-q", "--no-verify", "-m", "markers")
    assert conflict_marker_files(repo, "HEAD") == WITH_BLOCK  # push's whole-commit check
    head = git(solo.tree, "rev-parse", "HEAD").strip()
    assert sorted(_grep_markers(repo, head, repo.pathspec())) == WITH_BLOCK  # committed
    assert sorted(status(repo).committed_markers) == WITH_BLOCK


@pytest.mark.parametrize("name", ["lone_start", "setext_eight"])
def test_what_curate_writes_git_commit_and_push_accept(tmp_path: Path, name: str) -> None:
    member = standalone_member(tmp_path)
    remote = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", str(remote))
    member.ok("vc", "remote", "add", "origin", str(remote))
    member.ok("hooks", "install")
    text = CASES[name][0].decode()
    member.ok("curate", "add", "git/howto", "--title", "Markers", "--content", text)
    git(member.tree, "add", "-A")
    git(member.tree, "commit", "-q", "-m", "a note about git")  # brv's pre-commit hook runs
    member.ok("vc", "push", "-u")
