"""The git dir, HEAD's commit and branch read from the files are what rev-parse says; else git."""

from __future__ import annotations

import os
from pathlib import Path

from vc_helpers import git, make_member

from brv_vc.vc.repo import KnowledgeRepo, read_ref, read_whereabouts


def _asked(repo: Path) -> tuple[Path, Path, str, str]:
    out = git(repo, "rev-parse", "--absolute-git-dir", "--path-format=absolute",
              "--git-common-dir", "HEAD^{commit}", "--symbolic-full-name", "HEAD").splitlines()
    return Path(out[0]), Path(out[1]), out[2], out[3].removeprefix("refs/heads/")


def _repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty",
        "-m", "one")
    return repo


def test_read_as_rev_parse_says(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    assert read_whereabouts(repo) == _asked(repo)
    git(repo, "checkout", "-q", "-b", "team/feature-1")
    assert read_whereabouts(repo) == _asked(repo)
    git(repo, "pack-refs", "--all")  # the branch only in packed-refs
    assert not (repo / ".git/refs/heads/team/feature-1").exists()
    assert read_whereabouts(repo) == _asked(repo)
    git(repo, "checkout", "-q", "--detach")
    assert read_whereabouts(repo) == _asked(repo)
    link = tmp_path / "link"
    os.symlink(repo, link)  # the git dir resolved, as --absolute-git-dir gives it
    assert read_whereabouts(link) == _asked(link)
    assert KnowledgeRepo(repo, "").whereabouts() == _asked(repo)


def test_what_the_files_cannot_say_is_asked_of_git(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", "-b", "side", str(other))
    assert read_whereabouts(other) is None  # a .git file
    assert KnowledgeRepo(other, "").whereabouts() == _asked(other)
    git(repo, "checkout", "-q", "--orphan", "unborn")
    assert read_whereabouts(repo) is None  # a branch not born yet
    git(repo, "checkout", "-q", "main")
    git(repo, "symbolic-ref", "refs/heads/alias", "refs/heads/main")
    git(repo, "symbolic-ref", "HEAD", "refs/heads/alias")
    assert read_whereabouts(repo) is None  # the branch is itself a symbolic ref
    git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
    config = repo / ".git" / "config"
    plain = config.read_text(encoding="utf-8")
    config.write_text(plain + "[extensions]\n\trefStorage = reftable\n", encoding="utf-8")
    assert read_whereabouts(repo) is None
    config.write_text(plain + "[include]\n\tpath = more.conf\n", encoding="utf-8")
    assert read_whereabouts(repo) is None
    config.write_text(plain, encoding="utf-8")
    assert read_whereabouts(repo) == _asked(repo)
    head = repo / ".git" / "HEAD"
    head.unlink()
    os.symlink("refs/heads/main", head)  # core.preferSymlinkRefs: HEAD names main by a link
    assert read_whereabouts(repo) is None  # not a detached HEAD
    assert KnowledgeRepo(repo, "").whereabouts() == _asked(repo)
    assert _asked(repo)[3] == "main"


def test_vc_commit_asks_git_no_rev_parse(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    me = make_member(tmp_path, "me")
    me.ok("vc", "init")
    me.write("kb/n/a.md", "A")
    me.ok("vc", "add")
    me.ok("vc", "commit", "-m", "first")
    me.write("kb/n/b.md", "B")
    me.ok("vc", "add")
    trace = tmp_path / "trace.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(trace))
    me.ok("vc", "commit", "-m", "second")
    assert '"rev-parse"' not in trace.read_text(encoding="utf-8")


def test_a_ref_read_from_the_files_is_what_rev_parse_says(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    dot = repo / ".git"
    head = git(repo, "rev-parse", "HEAD").strip()
    assert read_ref(dot, "refs/remotes/origin/main") == head  # loose
    git(repo, "pack-refs", "--all")
    assert not (dot / "refs/remotes/origin/main").exists()
    assert read_ref(dot, "refs/remotes/origin/main") == head  # packed
    assert read_ref(dot, "refs/remotes/origin/gone") is None
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
    assert read_ref(dot, "refs/remotes/origin/HEAD") is None  # symbolic: git's to follow
