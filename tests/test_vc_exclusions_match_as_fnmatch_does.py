"""The managed patterns are matched with string tests (no regex compiled), exactly as fnmatchcase."""

from __future__ import annotations

import subprocess
import sys
from fnmatch import fnmatchcase

from hypothesis import example, given
from hypothesis import strategies as st

from brv_vc.vc import exclusions
from brv_vc.vc.exclusions import DERIVED_PATTERNS, JUNK_PATTERNS, _forms, matches

PATTERNS = (*DERIVED_PATTERNS, *JUNK_PATTERNS)
# the patterns' own characters, so that near misses are common
NAMES = st.text(alphabet="._#~*?[]!abdefhimnoprstuwxyDSTI-\n", max_size=16) | st.sampled_from(
    [p.replace("*", "x") for p in PATTERNS] + [p.replace("*", "") for p in PATTERNS])


@given(NAMES)
@example(".nfs")
@example("x.abstract.mdx")
@example("~")
def test_a_name_matches_when_fnmatchcase_says_so(name: str) -> None:
    assert matches(name) == any(fnmatchcase(name, p) for p in PATTERNS)


@given(NAMES, st.lists(st.text(alphabet="ab*?[]!.~", min_size=1, max_size=6), max_size=6))
def test_any_pattern_set_splits_into_forms_that_agree(name: str, patterns: list[str]) -> None:
    """Patterns of other shapes (``?``, ``[...]``, two stars) are left to fnmatchcase."""
    names, prefixes, suffixes, others = _forms(tuple(patterns))
    mine = (name in names or name.startswith(prefixes) or name.endswith(suffixes)
            or any(fnmatchcase(name, p) for p in others))
    assert mine == any(fnmatchcase(name, p) for p in patterns)


def test_the_managed_patterns_need_no_fnmatch() -> None:
    assert exclusions._OTHERS == ()
    done = subprocess.run([sys.executable, "-c", (
        "import pathlib, re\nbefore = len(re._cache)\n"
        "from brv_vc.vc.exclusions import is_excluded\n"
        "print(is_excluded('a/b/_index.md'), is_excluded('a/b.md'), len(re._cache) - before)")],
        capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "False", "0"]  # no pattern compiled
