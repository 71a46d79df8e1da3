"""The resident folder watch (inotify): every change reported, none lost, the wider checks asked for."""

from __future__ import annotations

import os
import shutil
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from brv_vc.index import scan
from brv_vc.index import sync as syncmod
from brv_vc.index.watch import Seen, Watch
from brv_vc.services.curate import run_batch
from brv_vc.services.query import SearchSession
from brv_vc.tree.project import Project

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="inotify is Linux's")

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
ENTRY = "auth/jwt/key_storage.md"


def add(title: str, content: str, path: str = "auth/jwt") -> dict:
    return {"type": "ADD", "path": path, "title": title, "content": content, "reason": "t"}


@pytest.fixture
def tree(project: Project) -> Path:
    run_batch(project, [add("Key storage", "Keys live in the vault."),
                        add("Pool sizes", "Twenty connections.", "db/pool")], NOW)
    return project.tree


@pytest.fixture
def watch(tree: Path):
    found = Watch.start(tree)
    assert found is not None, "inotify should be available on Linux"
    yield found
    found.close()


@pytest.fixture
def session(project: Project, monkeypatch):
    """A resident session on the large-tree path (no full walk), over one entry: ENTRY."""
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    run_batch(project, [add("Key storage", "Keys live in the vault.")], NOW)
    opened = SearchSession(project)
    yield opened
    opened.close()


def append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as handle:  # in place: the folder's mtime stays
        handle.write(text)


def test_nothing_changed_reports_nothing(watch: Watch) -> None:
    assert watch.take() == Seen()


def test_an_in_place_edit_a_new_file_and_a_removal_are_file_events(
        tree: Path, watch: Watch) -> None:
    append(tree / ENTRY, "\nRotated.\n")
    (tree / "auth/jwt/new_note.md").write_text("---\ntitle: New\n---\nBody\n")
    (tree / "db/pool/pool_sizes.md").unlink()
    assert watch.take() == Seen(files=(ENTRY, "auth/jwt/new_note.md", "db/pool/pool_sizes.md"))
    assert watch.take() == Seen()  # each change reported once


def test_derived_and_hidden_names_are_left_to_paths_filtering_or_ignored(
        tree: Path, watch: Watch) -> None:
    (tree / "auth/jwt/.key_storage.md.swp").write_bytes(b"editor swap")
    (tree / "auth/jwt/notes.txt").write_text("not markdown")
    (tree / ".git").mkdir()
    (tree / ".git/index").write_bytes(b"git's own")
    assert watch.take() == Seen()


def test_a_new_folder_asks_for_the_folder_check_and_is_watched_from_then(
        tree: Path, watch: Watch) -> None:
    (tree / "auth/oauth").mkdir()
    (tree / "auth/oauth/flows.md").write_text("---\ntitle: Flows\n---\nBody\n")
    seen = watch.take()
    assert seen.folders
    assert not seen.lost
    append(tree / "auth/oauth/flows.md", "\nPKCE everywhere.\n")
    assert watch.take() == Seen(files=("auth/oauth/flows.md",))


def test_a_moved_folder_reports_under_its_new_name(tree: Path, watch: Watch) -> None:
    os.rename(tree / "db/pool", tree / "db/pools")
    assert watch.take().folders
    append(tree / "db/pools/pool_sizes.md", "\nThirty now.\n")
    assert watch.take() == Seen(files=("db/pools/pool_sizes.md",))


def test_markdown_at_the_root_or_in_a_domain_folder_asks_for_the_folder_check(
        tree: Path, watch: Watch) -> None:
    (tree / "stray.md").write_text("outside the layout")
    assert watch.take() == Seen(folders=True)
    append(tree / "auth/context.md", "\nMore.\n")  # indexed, and a synthesis could be there
    assert watch.take() == Seen(files=("auth/context.md",), folders=True)


def test_a_full_event_queue_is_reported_lost_and_the_watch_goes_on(
        tree: Path, watch: Watch) -> None:
    limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
    a, b = tree / ENTRY, tree / "db/pool/pool_sizes.md"
    for _ in range(limit // 2 + 10):  # alternating files: the kernel merges no two events
        os.utime(a)
        os.utime(b)
    seen = watch.take()
    assert seen.lost
    assert seen.folders
    append(tree / ENTRY, "\nAfter the overflow.\n")
    assert watch.take() == Seen(files=(ENTRY,))


def test_a_removed_tree_cannot_be_watched_again(tree: Path, watch: Watch) -> None:
    shutil.rmtree(tree)
    with pytest.raises(OSError, match="watching"):
        watch.take()


@pytest.mark.parametrize("watched", [True, False], ids=["watched", "without-inotify"])
def test_a_large_tree_session_sees_an_in_place_edit(
        project: Project, monkeypatch, watched: bool) -> None:
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)  # the large-tree path at any size
    if not watched:
        monkeypatch.setattr(Watch, "start", classmethod(lambda cls, tree: None))
    run_batch(project, [add("Key storage", "Keys live in the vault.")], NOW)
    session = SearchSession(project)
    try:
        assert session.search("vault", now=NOW, record=False).results
        append(project.tree / ENTRY, "\nAudited by the quoll team.\n")
        if watched:  # the kernel told the session: the very next call sees it
            assert session.search("quoll", now=NOW, record=False).results[0].path == ENTRY
        else:  # the in-place scan finds it within a second or two
            deadline = time.monotonic() + 10
            while not session.search("quoll", now=NOW, record=False).results:
                assert time.monotonic() < deadline, "an in-place edit was never seen"
                time.sleep(0.05)
        (project.tree / ENTRY).unlink()
        assert not session.search("quoll", now=NOW, record=False).results
    finally:
        session.close()


def test_a_watched_session_moves_the_scan_stamp_for_the_cli(
        project: Project, session: SearchSession) -> None:
    stamp = scan.stamp_path(project.state)
    session.search("vault", now=NOW, record=False)
    os.utime(stamp, ns=(0, 0))
    before = time.time_ns()
    clock = [time.monotonic() + 5]  # past SCAN_SECONDS since the session's last mark
    session._clock = lambda: clock[0]
    session.search("vault", now=NOW, record=False)
    # a CLI's find -cnewer then lists only what changed after this check
    assert stamp.stat().st_mtime_ns >= before - scan.MARGIN_NS - 10**9


def test_a_session_after_lost_events_runs_the_complete_check(
        project: Project, monkeypatch) -> None:
    monkeypatch.setattr(syncmod, "FULL_WALK_MAX", 0)
    run_batch(project, [add("Key storage", "Keys live in the vault."),
                        add("Pool sizes", "Twenty connections.", "db/pool")], NOW)
    session = SearchSession(project)
    try:
        session.search("vault", now=NOW, record=False)
        limit = int(Path("/proc/sys/fs/inotify/max_queued_events").read_text())
        a, b = project.tree / "db/pool/pool_sizes.md", project.tree / "auth/jwt/pool_sizes.md"
        b.write_text(a.read_text())
        for _ in range(limit // 2 + 10):  # the queue fills up ...
            os.utime(a)
            os.utime(b)
        append(project.tree / ENTRY, "\nAudited by the quoll team.\n")  # ... so this is lost
        assert session.search("quoll", now=NOW, record=False).results[0].path == ENTRY
    finally:
        session.close()


def test_a_watched_session_sees_a_synthesis_edited_in_place(
        project: Project, session: SearchSession) -> None:
    synthesis = project.tree / "auth/crosscut.md"
    synthesis.write_text("---\ntitle: Crosscut\ntype: synthesis\n---\n\nAcross: lemons.\n")
    assert session.search("lemons", now=NOW, record=False).results[0].path == (
        "auth/crosscut.md")
    text = synthesis.read_text()
    with synthesis.open("r+", encoding="utf-8") as handle:  # in place
        handle.write(text.replace("lemons", "mangos"))
    assert session.search("mangos", now=NOW, record=False).results[0].path == (
        "auth/crosscut.md")


def test_a_new_folder_and_an_in_place_edit_between_two_calls_are_both_seen(
        project: Project, session: SearchSession) -> None:
    """The folder check alone would miss the edit: the watch's files are checked with it."""
    session.search("vault", now=NOW, record=False)
    (project.tree / "auth/oauth").mkdir()
    (project.tree / "auth/oauth/flows.md").write_text(
        "---\ntitle: Flows\n---\n\nPKCE with a numbat.\n")
    append(project.tree / ENTRY, "\nAudited by the numbat team.\n")
    paths = {r.path for r in session.search("numbat", now=NOW, record=False).results}
    assert paths == {ENTRY, "auth/oauth/flows.md"}


def test_a_watched_session_sees_what_git_checkout_changes(
        project: Project, session: SearchSession) -> None:
    """git rewrites files its own way (unlink and create, in place, new folders): all seen."""
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
                       cwd=project.tree, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("checkout", "-q", "-b", "other")
    append(project.tree / ENTRY, "\nRotated by the wombat job.\n")
    (project.tree / "ops/deploy").mkdir(parents=True)
    (project.tree / "ops/deploy/wombat_release.md").write_text(
        "---\ntitle: Wombat release\n---\n\nThe wombat release train.\n")
    git("add", "-A")
    git("commit", "-q", "-m", "other")
    git("checkout", "-q", "main")
    assert session.search("wombat", now=NOW, record=False).results == ()
    git("checkout", "-q", "other")
    paths = {r.path for r in session.search("wombat", now=NOW, record=False).results}
    assert paths == {ENTRY, "ops/deploy/wombat_release.md"}
    git("checkout", "-q", "main")
    assert session.search("wombat", now=NOW, record=False).results == ()
