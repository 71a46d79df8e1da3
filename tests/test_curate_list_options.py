"""Curate's list options (--tags, --keywords, --related): repeated or comma-separated, every
value is kept; on an update a given list replaces the stored one, an empty one clears it."""

from __future__ import annotations

import pytest

from brv_vc.format.entry import parse_entry
from brv_vc.tree.project import Project

ROT = "auth/jwt/token_rotation.md"


def entry(project: Project, rel: str):
    return parse_entry((project.tree / rel).read_bytes(), file=rel)


LISTS = [
    # (option, the values as typed, the stored list)
    ("--related", ["kb/n/src.md", "kb/n/gone.md"], ("kb/n/src.md", "kb/n/gone.md")),
    ("--related", ["kb/n/a.md,kb/n/b.md"], ("kb/n/a.md", "kb/n/b.md")),
    ("--related", ["kb/n/a.md, kb/n/b.md", "kb/n/c.md"], ("kb/n/a.md", "kb/n/b.md", "kb/n/c.md")),
    ("--tags", ["one", "two"], ("one", "two")),
    ("--tags", ["one,two", "three"], ("one", "two", "three")),
    ("--keywords", ["alpha", "beta,gamma"], ("alpha", "beta", "gamma")),
]


@pytest.mark.parametrize(("option", "values", "stored"), LISTS)
@pytest.mark.parametrize("command", ["add", "upsert"])
def test_repeated_list_options_collect_every_value(
    project: Project, brv, command: str, option: str, values: list[str], stored: tuple[str, ...]
) -> None:
    repeated = [arg for value in values for arg in (option, value)]
    result = brv(
        "curate", command, "kb/n", "--title", "Tgt", "--content", "t", *repeated, "--json",
        cwd=project.root,
    )
    assert result.exit_code == 0, result.stderr
    field = option.removeprefix("--")
    assert getattr(entry(project, "kb/n/tgt.md"), field) == stored


def test_repeated_list_options_on_update_replace_the_list(seeded: Project, brv) -> None:
    result = brv(
        "curate", "update", ROT, "--tags", "jwt", "--tags", "tokens,security",
        "--keywords", "refresh", "--keywords", "rotation", cwd=seeded.root,
    )
    assert result.exit_code == 0, result.stderr
    stored = entry(seeded, ROT)
    assert stored.tags == ("jwt", "tokens", "security")
    assert stored.keywords == ("refresh", "rotation")


def test_an_empty_list_option_still_clears_the_list(seeded: Project, brv) -> None:
    result = brv("curate", "update", ROT, "--tags", "", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert entry(seeded, ROT).tags == ()


def test_an_absent_list_option_keeps_the_list(seeded: Project, brv) -> None:
    result = brv("curate", "update", ROT, "--summary", "new summary", cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert entry(seeded, ROT).tags == ("auth",)


def test_list_option_help_says_it_repeats(project: Project, brv) -> None:
    text = " ".join(brv("curate", "add", "--help", cwd=project.root).stdout.split())
    for option in ("--tags", "--keywords", "--related"):
        assert f"{option} TEXT" in text
    assert text.count("repeatable") >= 3
