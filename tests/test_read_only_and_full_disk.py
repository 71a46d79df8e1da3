"""A read-only tree or state folder and a full disk end in exit 1 and what to do, never exit 3."""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from test_hostile_input_caps import disk

from brv_vc.services.init import init_project

NEVER = ("internal error", "move it aside", "mv .brv/state/brv.db")


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _unmount(path: Path) -> None:
    subprocess.run(["umount", "-l", str(path)], check=False, capture_output=True)


@pytest.fixture
def small_disk(tmp_path: Path, brv) -> Iterator[Path]:
    """A project on its own 4 MB tmpfs, with a few entries; skipped where mounting is denied."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    try:
        _mount("-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mnt))
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"mounting a tmpfs is not permitted here ({exc})")
    root = mnt / "proj"
    root.mkdir()
    init_project(root)
    for i in range(5):
        result = brv("curate", "add", "api/auth", "--title", f"Entry {i}", "--content",
                     f"Refresh tokens rotate, case {i}.", "--reason", "seed", cwd=root)
        assert result.exit_code == 0, result.stderr
    assert brv("search", "rotate", cwd=root).exit_code == 0
    try:
        yield root
    finally:
        for inner in (root / ".brv/state", root / ".brv/context-tree", mnt):
            _unmount(inner)


@pytest.fixture
def read_only(small_disk: Path) -> Iterator[Callable[[Path], None]]:
    mounted: list[Path] = []

    def make(folder: Path) -> None:
        _mount("--bind", str(folder), str(folder))
        mounted.append(folder)
        _mount("-o", "remount,bind,ro", str(folder))

    yield make
    for folder in mounted:
        _unmount(folder)


def told(brv, root: Path, *args: str) -> str:
    """Runs brv: exit 1, a message without an internal error, nothing changed; its stderr."""
    before = disk(root)
    result = brv(*args, cwd=root)
    assert result.exit_code == 1, (args, result.stdout, result.stderr)
    for bad in NEVER:
        assert bad not in result.stderr, result.stderr
    assert disk(root) == before
    return result.stderr


@pytest.mark.parametrize("args", [("search", "rotate"), ("show", "api/auth/entry_1.md")])
def test_read_only_state(small_disk: Path, read_only, brv, args: tuple[str, ...]) -> None:
    (small_disk / ".brv/context-tree/api/auth/entry_1.md").touch()  # a change to sync
    read_only(small_disk / ".brv/state")
    err = told(brv, small_disk, *args)
    assert "is on a read-only file system, and this command needs to write there" in err
    assert "file: .brv/state/" in err
    assert "hint: remount it writable, or run brv in a writable copy" in err


@pytest.mark.parametrize("args", [("archive", "api/auth/entry_2.md"),
                                  ("dehydrate", "api/auth", "--digest", "the digest")])
def test_read_only_tree(small_disk: Path, read_only, brv, args: tuple[str, ...]) -> None:
    read_only(small_disk / ".brv/context-tree")
    err = told(brv, small_disk, *args)
    assert "is on a read-only file system, and this command needs to write there" in err
    assert "file: .brv/context-tree/" in err
    assert ".tmp" not in err  # the folder is named, not a staging file


def _fill(root: Path) -> Path:
    filler = root.parent / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    return filler


@pytest.mark.parametrize("args", [("index", "--rebuild"), ("search", "rotate"),
                                  ("dream", "--force")])
def test_full_disk(small_disk: Path, brv, args: tuple[str, ...]) -> None:
    (small_disk / ".brv/context-tree/api/auth/entry_1.md").touch()  # a change to sync
    filler = _fill(small_disk)
    before = {k: v for k, v in disk(small_disk).items() if not k.endswith(("index.db", ".lock"))}
    result = brv(*args, cwd=small_disk)
    assert result.exit_code == 1, result.stderr
    for bad in NEVER:
        assert bad not in result.stderr, result.stderr
    assert "no space left on the disk holding .brv/state" in result.stderr
    assert "hint: free some space (df -h .brv/state), then run the command again" in \
        result.stderr
    assert "never delete or move .brv/state/brv.db" in result.stderr
    # the tree and the state database as they were (the derived index may be rebuilt)
    assert {k: v for k, v in disk(small_disk).items() if not k.endswith(("index.db", ".lock"))} == before
    filler.unlink()
    again = brv("search", "rotate", "--json", cwd=small_disk)  # space again: all works
    assert again.exit_code == 0, again.stderr
    assert len(again.json()["results"]) == 5
