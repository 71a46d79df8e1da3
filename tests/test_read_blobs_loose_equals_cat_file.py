"""read_blobs gives the bytes git cat-file gives, whether blobs are loose or packed, and leaves
to git what it does not read itself (replace refs, a worktree's .git file)."""

from __future__ import annotations

from pathlib import Path

from vc_helpers import git

from brv_vc.vc import git as vcgit
from brv_vc.vc.git import _loose_blobs, read_blobs

CONTENTS = {"a.md": b"---\ntitle: \"A\"\n---\nalpha\n", "b.md": b"bin\0ary\xff\n",
            "empty.md": b"", "crlf.md": b"one\r\ntwo\r\n"}


def _repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for name, data in CONTENTS.items():
        (repo / name).write_bytes(data)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "first")
    ids = {name: git(repo, "rev-parse", f"HEAD:{name}").strip() for name in CONTENTS}
    return repo, ids


def _cat_file(repo: Path, shas: list[str]) -> dict[str, bytes]:
    return {sha: vcgit._git_bytes(["cat-file", "blob", sha], repo) for sha in shas}


def test_loose_blobs_are_read_as_git_reads_them(tmp_path: Path) -> None:
    repo, ids = _repo(tmp_path)
    shas = list(ids.values())
    assert _loose_blobs(repo, shas) == _cat_file(repo, shas)
    tree = git(repo, "rev-parse", "HEAD^{tree}").strip()
    missing = "1" * 40
    found = read_blobs(repo, [*shas, tree, missing, "0" * 40])
    assert found == _cat_file(repo, shas)  # a tree and a missing id are left out, as before


def test_packed_blobs_come_from_cat_file(tmp_path: Path) -> None:
    repo, ids = _repo(tmp_path)
    git(repo, "gc", "-q", "--prune=now")
    shas = list(ids.values())
    assert _loose_blobs(repo, shas) == {}
    assert read_blobs(repo, shas) == _cat_file(repo, shas)


def test_a_replaced_blob_is_read_by_git(tmp_path: Path) -> None:
    repo, ids = _repo(tmp_path)
    (repo / "other.md").write_bytes(b"replacement\n")
    other = git(repo, "hash-object", "-w", "other.md").strip()
    git(repo, "replace", ids["a.md"], other)
    assert _loose_blobs(repo, [ids["a.md"]]) == {}
    assert read_blobs(repo, [ids["a.md"]]) == {ids["a.md"]: b"replacement\n"}
    git(repo, "pack-refs", "--all")  # the replace ref is packed: still seen
    assert not (repo / ".git/refs/replace" / ids["a.md"]).exists()
    if (repo / ".git/refs/replace").is_dir():
        (repo / ".git/refs/replace").rmdir()  # only packed-refs names it now
    assert _loose_blobs(repo, [ids["a.md"]]) == {}
    assert read_blobs(repo, [ids["a.md"]]) == {ids["a.md"]: b"replacement\n"}


def test_a_worktree_reads_through_git(tmp_path: Path) -> None:
    repo, ids = _repo(tmp_path)
    other = tmp_path / "other"
    git(repo, "worktree", "add", "-q", str(other))
    shas = list(ids.values())
    assert _loose_blobs(other, shas) == {}
    assert read_blobs(other, shas) == _cat_file(repo, shas)


def test_blobs_at_reads_a_commits_paths_and_leaves_out_what_it_lacks(tmp_path: Path) -> None:
    from brv_vc.vc.git import blobs_at

    repo, _ = _repo(tmp_path)
    (repo / "a b.md").write_bytes(b"spaced\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "second")
    found = blobs_at(repo, "HEAD~1", ["a.md", "missing one.md", "b.md", "a b.md", "empty.md"])
    assert found == {"a.md": CONTENTS["a.md"], "b.md": CONTENTS["b.md"], "empty.md": b""}
    assert blobs_at(repo, "HEAD", ["a b.md"]) == {"a b.md": b"spaced\n"}
