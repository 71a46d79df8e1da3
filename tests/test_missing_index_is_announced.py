"""A missing index is rebuilt with a word: a counter on a terminal, a note when it took long."""

from __future__ import annotations

import io

import pytest

from brv_vc.cli import index_notice
from brv_vc.services.derived import build_watch
from brv_vc.services.derived import index as derived_index
from brv_vc.tree.project import Project
from brv_vc.tree.statedb import index_db_path


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_long_build_is_named_on_stderr(seeded: Project, brv,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    index_db_path(seeded).unlink()
    monkeypatch.setattr(derived_index, "BUILD_NOTE_AFTER", 0.0)  # "long" for the test
    result = brv("search", "rotation", cwd=seeded.root)
    assert result.exit_code == 0
    assert "the search index was missing or unreadable: built it from 3 files" in result.stderr
    again = brv("search", "rotation", cwd=seeded.root)
    assert "search index" not in again.stderr  # built once, said once


def test_a_quick_build_off_a_terminal_says_nothing(seeded: Project, brv) -> None:
    index_db_path(seeded).unlink()
    result = brv("search", "rotation", cwd=seeded.root)
    assert result.exit_code == 0
    assert result.stderr == ""


def test_the_counter_draws_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    tty = _Tty()
    monkeypatch.setattr("sys.stderr", tty)
    counter = index_notice.Counter()
    counter(0, 20_000)
    counter(10_000, 20_000)
    counter.close()
    assert "building the search index (it was missing): 10,000/20,000 files" in tty.getvalue()
    assert tty.getvalue().endswith("\r\033[K")
    plain = io.StringIO()
    monkeypatch.setattr("sys.stderr", plain)
    quiet = index_notice.Counter()
    quiet(0, 20_000)
    quiet.close()
    assert plain.getvalue() == ""


def test_the_cli_installs_the_counter(seeded: Project, brv) -> None:
    brv("tree", cwd=seeded.root)
    assert build_watch.FACTORY is index_notice.Counter


def test_brv_index_builds_a_missing_index_without_a_warning(
        seeded: Project, brv, monkeypatch: pytest.MonkeyPatch) -> None:
    """`brv index` was asked to build: its answer says what it indexed, no "missing" warning."""
    index_db_path(seeded).unlink()
    monkeypatch.setattr(derived_index, "BUILD_NOTE_AFTER", 0.0)
    result = brv("index", cwd=seeded.root)
    assert result.exit_code == 0
    assert "Indexed 3 files (3 added" in result.stdout
    assert "missing" not in result.stderr
