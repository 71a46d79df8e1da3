"""Test files are named by the behaviour they cover and say so in a docstring (STYLE.md "Our own
shape"): no name after the round of work that wrote it, no helper posing as a test file."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent

# Words that name a round of work, not a behaviour ("test_vc_fixes", "test_curate_audit2").
ROUND_WORDS = frozenset({"audit", "fix", "fixes", "round", "stop", "issue", "misc", "new"})


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if "fixtures" not in p.relative_to(TESTS).parts)


def _test_files() -> list[Path]:
    return [p for p in _modules() if p.name.startswith("test_")]


def round_of_work_words(stem: str) -> list[str]:
    """What in a test file's name says when it was written rather than what it covers."""
    words = re.split(r"[_\d]+", stem)  # "audit2" is the word "audit"
    found = [word for word in words if word.lower() in ROUND_WORDS]
    if re.search(r"\d$", stem):
        found.append(f"ends in a digit ({stem})")
    return found


@pytest.mark.parametrize(
    ("stem", "bad"),
    [
        ("test_curate_audit2", True),
        ("test_vc_fixes", True),
        ("test_vc_team_fix", True),
        ("test_round_trip_misc", True),
        ("test_new_things", True),
        ("test_issue_10", True),
        ("test_stop_work", True),
        ("test_vc_merge3", True),
        ("test_vc_reset", False),
        ("test_curate_merge_links", False),
        ("test_search_prefix", False),  # "fix" only as a word, never inside one
        ("test_vc_merge_three_way", False),
    ],
)
def test_the_name_check_catches_rounds_of_work(stem: str, bad: bool) -> None:
    assert bool(round_of_work_words(stem)) is bad


def test_no_test_file_is_named_after_a_round_of_work() -> None:
    offenders = {p.name: round_of_work_words(p.stem) for p in _test_files()}
    assert {name: words for name, words in offenders.items() if words} == {}


def test_every_module_under_tests_starts_with_a_docstring() -> None:
    missing = [
        str(p.relative_to(TESTS)) for p in _modules()
        if not (ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "").strip()
    ]
    assert missing == []


def test_a_file_named_test_holds_tests() -> None:
    """A helper module named ``test_*.py`` reads as a behaviour nobody tests: name it plainly."""
    empty = []
    for path in _test_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [node.name for node in ast.walk(tree)
                 if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)]
        if not any(name.startswith(("test_", "Test")) for name in names):
            empty.append(path.name)
    assert empty == []
