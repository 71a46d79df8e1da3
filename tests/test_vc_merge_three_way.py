"""The knowledge-aware 3-way merge (pure) and the driver's fallback to git merge-file."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import run_brv
from vc_helpers import entry_bytes

from brv_vc.errors import FormatError
from brv_vc.format.entry import parse_entry
from brv_vc.services.vc.driver import run_merge_driver
from brv_vc.vc.merge3 import merge_entries

BASE = entry_bytes("T", tags=("a", "b"), narrative="one\ntwo", facts=["f1"],
                   created="2025-02-01T00:00:00Z", updated="2025-02-01T00:00:00Z")


def _merge(ours: bytes, theirs: bytes, base: bytes | None = BASE):
    result = merge_entries(base, ours, theirs, path="d/t/t.md")
    return result, result.data.decode()


def test_identical_sides_keep_the_bytes() -> None:
    result, _ = _merge(BASE, BASE)
    assert result.data == BASE
    assert result.conflicts == ()


def test_lists_union_additions_and_honour_removals() -> None:
    ours = entry_bytes("T", tags=("a", "b", "x"), narrative="one\ntwo", facts=["f1"])
    theirs = entry_bytes("T", tags=("b", "y"), narrative="one\ntwo", facts=["f1"])
    result, _ = _merge(ours, theirs)
    assert parse_entry(result.data).tags == ("b", "x", "y")
    assert result.conflicts == ()


def test_earliest_created_latest_updated() -> None:
    ours = entry_bytes("T", tags=("a", "b"), narrative="one\ntwo", facts=["f1"],
                       created="2025-01-01T00:00:00Z", updated="2025-03-01T00:00:00Z")
    theirs = entry_bytes("T", tags=("a", "b"), narrative="one\ntwo", facts=["f1"],
                         created="2025-02-01T00:00:00Z", updated="2025-04-01T00:00:00Z")
    merged = parse_entry(_merge(ours, theirs)[0].data)
    assert (merged.created_at, merged.updated_at) == ("2025-01-01T00:00:00Z",
                                                      "2025-04-01T00:00:00Z")


def test_scalar_changed_on_both_sides_is_a_key_conflict() -> None:
    ours = entry_bytes("Ours", tags=("a", "b"), narrative="one\ntwo", facts=["f1"])
    theirs = entry_bytes("Theirs", summary="new summary", tags=("a", "b"),
                         narrative="one\ntwo", facts=["f1"])
    result, text = _merge(ours, theirs)
    assert result.conflicts == ("title",)
    assert '<<<<<<< ours\ntitle: "Ours"\n=======\ntitle: "Theirs"\n>>>>>>> theirs\n' in text
    assert 'summary: "new summary"' in text


def test_section_conflict_stays_inside_the_section() -> None:
    ours = entry_bytes("T", tags=("a", "b"), narrative="one\nOURS", facts=["f1", "f2"])
    theirs = entry_bytes("T", tags=("a", "b"), narrative="one\nTHEIRS", facts=["f1"])
    result, text = _merge(ours, theirs)
    assert result.conflicts == ("Narrative",)
    assert "## Narrative\n<<<<<<< ours\none\nOURS\n=======\none\nTHEIRS\n>>>>>>> theirs\n" in text
    assert "## Facts\n- f1\n- f2\n" in text


def test_sections_added_on_each_side_both_land_in_order() -> None:
    ours = BASE + b"\n## Caveats\nnone\n"
    theirs = BASE.replace(b"## Facts", b"## Context\nwhy\n\n## Facts")
    result, text = _merge(ours, theirs)
    assert result.conflicts == ()
    assert text.index("## Narrative") < text.index("## Context") < text.index("## Facts") < (
        text.index("## Caveats"))


def test_both_added_with_no_base() -> None:
    ours = entry_bytes("T", tags=("a",), narrative="mine")
    theirs = entry_bytes("T", tags=("b",), narrative="theirs", facts=["f"])
    result, text = _merge(ours, theirs, base=None)
    assert result.conflicts == ("Narrative",)
    assert 'tags: ["a", "b"]' in text
    assert "## Facts\n- f\n" in text


def test_a_file_without_frontmatter_is_refused_for_the_line_merge() -> None:
    with pytest.raises(FormatError):
        merge_entries(b"# Title\n", b"# Title\nours\n", b"# Title\n")


def test_driver_falls_back_to_git_merge_file(tmp_path: Path) -> None:
    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    base.write_bytes(b"# Notes\n\nline 1\nline 2\nline 3\n")
    ours.write_bytes(b"# Notes\n\nline 1 ours\nline 2\nline 3\n")
    theirs.write_bytes(b"# Notes\n\nline 1\nline 2\nline 3 theirs\n")
    result = run_merge_driver(base, ours, theirs, "notes/readme.md")
    assert result.method == "line"
    assert result.conflicts == ()
    assert ours.read_bytes() == b"# Notes\n\nline 1 ours\nline 2\nline 3 theirs\n"


def test_merge_driver_command_exit_codes(tmp_path: Path) -> None:
    base, ours, theirs = (tmp_path / n for n in ("base", "ours", "theirs"))
    base.write_bytes(BASE)
    ours.write_bytes(BASE.replace(b'"T"', b'"A"'))
    theirs.write_bytes(BASE.replace(b'"T"', b'"B"'))
    result = run_brv("merge-driver", str(base), str(ours), str(theirs), "d/t/t.md", cwd=tmp_path)
    assert result.exit_code == 1
    assert "conflict in d/t/t.md: title" in result.stderr
    theirs.write_bytes(BASE.replace(b"f1", b"f2"))
    ours.write_bytes(BASE.replace(b'"T"', b'"A"'))
    assert run_brv("merge-driver", str(base), str(ours), str(theirs), cwd=tmp_path).exit_code == 0
    assert b'"A"' in ours.read_bytes()
    assert b"f2" in ours.read_bytes()
