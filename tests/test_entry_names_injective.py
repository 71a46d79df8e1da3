"""Entry file names: two titles of a folder never share a file, and a title finds its file."""

from __future__ import annotations

import json
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brv_vc.format.entry import Entry, parse_entry, serialize_entry
from brv_vc.services.curate import run_batch, validate_ops
from brv_vc.services.curate.names import find_slot
from brv_vc.services.curate.view import View
from brv_vc.services.init import init_project
from brv_vc.tree import names
from brv_vc.tree.project import Project
from tests.conftest import run_brv

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FOLDER = "tools/shell"
TWINS = [
    "[", "!", "$", "((", "c", "c++", "c#", "f#", ".env", "env", "clang", "clang++", "Clang",
    "CLANG++", "Café", "cafe", "Q&A", "Q/A", "Context", "index", "→", "!!", "[[", "jwt", "JWT",
    "Node.js", "node js", "~/.bashrc", "bashrc", "?", "a b", "a-b", "a_b",
]


def add(title: str, folder: str = FOLDER) -> dict[str, Any]:
    return {"type": "ADD", "path": folder, "title": title, "reason": "r",
            "content": f"About {title} and its use."}


def curate(project: Project, *ops: dict[str, Any]) -> list[Any]:
    validate_ops(list(ops))
    result = run_batch(project, list(ops), NOW)
    return list(result.applied)


def title_of(project: Project, rel: str) -> str:
    return parse_entry((project.tree / rel).read_bytes(), file=rel).title


_TITLES = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn")),
    min_size=1, max_size=30,
).map(names.normal_title).filter(bool)
_SYMBOLIC = st.lists(st.sampled_from(list("+#$!.()[]&-_ cCéE")), min_size=1, max_size=6).map(
    lambda chars: names.normal_title("".join(chars))
).filter(bool)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=st.one_of(_TITLES, _SYMBOLIC), second=st.one_of(_TITLES, _SYMBOLIC))
def test_two_distinct_titles_get_two_files_and_each_title_maps_back(
    first: str, second: str
) -> None:
    if first == second:
        return
    with tempfile.TemporaryDirectory() as tmp:
        init_project(Path(tmp))
        project = Project(Path(tmp))
        applied = curate(project, add(first), add(second))
        assert [a.status for a in applied] == ["success", "success"], applied
        files = [a.file for a in applied]
        assert files[0] != files[1]
        view = View(project)
        for title, rel in zip((first, second), files, strict=True):
            assert title_of(project, rel) == title  # kept exactly as given
            slot = find_slot(view, FOLDER, title)
            assert (slot.rel, slot.exists) == (rel, True)


def test_punctuation_twins_are_stored_and_found_by_title(project: Project) -> None:
    ops = [add(t) for t in TWINS]
    (project.root / "ops.json").write_text(json.dumps(ops))
    done = run_brv("curate", "--ops", str(project.root / "ops.json"), "--json", cwd=project.root)
    assert done.exit_code == 0, done.stderr
    files = {a["file"] for a in done.json()["applied"]}  # type: ignore[index]
    assert len(files) == len(TWINS)
    assert {"tools/shell/clang_plus_plus.md", "tools/shell/c_sharp.md", "tools/shell/dot_env.md",
            "tools/shell/bang.md", "tools/shell/lbracket.md", "tools/shell/lparen_lparen.md",
            "tools/shell/dollar.md", "tools/shell/f_sharp.md"} <= files
    for title in TWINS:
        shown = run_brv("show", FOLDER, "--title", title, "--json", cwd=project.root)
        assert shown.exit_code == 0, (title, shown.stderr)
        assert shown.json()["title"] == title  # type: ignore[index]
    for title in ("clang", "clang++", ".env", "Node.js", "bashrc"):
        found = run_brv("search", title, "--json", cwd=project.root)
        assert found.exit_code == 0, found.stderr
        titles = [r["title"] for r in found.json()["results"]]  # type: ignore[index]
        assert title in titles, (title, titles)


def test_the_same_title_twice_fails_naming_the_entry(project: Project) -> None:
    curate(project, add("clang++"))
    again = curate(project, add("clang++"))[0]
    assert again.status == "failed"
    assert again.message == (
        "'tools/shell/clang_plus_plus.md' already exists with the title 'clang++'; use UPDATE "
        "or UPSERT, or give a different title"
    )
    entries = [p.name for p in (project.tree / FOLDER).glob("*.md") if p.name != "context.md"]
    assert [n for n in entries if not n.startswith("_") and n.count(".") == 1] == [
        "clang_plus_plus.md"
    ]


def test_names_of_an_existing_tree_keep_resolving(project: Project) -> None:
    # an earlier brv wrote "clang++" as clang.md: UPDATE/UPSERT/DELETE by title still find it
    curate(project, add("Old"))
    legacy = project.tree / FOLDER / "clang.md"
    legacy.write_bytes(serialize_entry(Entry(title="clang++", body="## Narrative\n\nold\n")))
    update = {"type": "UPDATE", "path": FOLDER, "title": "clang++", "content": "new",
              "reason": "r"}
    assert curate(project, update)[0].file == f"{FOLDER}/clang.md"
    upsert = dict(update, type="UPSERT", content="newer")
    assert curate(project, upsert)[0].file == f"{FOLDER}/clang.md"
    # "clang" itself is a different title: it gets a file of its own beside the old one
    added = curate(project, add("clang"))[0]
    assert added.status == "success"
    assert added.file.startswith(f"{FOLDER}/clang_")
    assert title_of(project, f"{FOLDER}/clang.md") == "clang++"
    delete = {"type": "DELETE", "path": FOLDER, "title": "clang++", "reason": "r"}
    assert curate(project, delete)[0].file == f"{FOLDER}/clang.md"
    assert not legacy.exists()
    assert (project.tree / added.file).exists()


@pytest.mark.parametrize("kind", ["UPDATE", "DELETE"])
def test_update_or_delete_of_a_title_no_entry_has_names_the_neighbour(
    project: Project, kind: str
) -> None:
    curate(project, add("jwt"))
    op = {"type": kind, "path": FOLDER, "title": "JWT", "reason": "r"}
    if kind == "UPDATE":
        op["content"] = "x"
    before = (project.tree / FOLDER / "jwt.md").read_bytes()
    result = curate(project, op)[0]
    assert result.status == "failed"
    verb = kind.lower()
    assert result.message == (
        f"no entry titled 'JWT' in '{FOLDER}' to {verb}; '{FOLDER}/jwt.md' is titled 'jwt'"
    )
    assert (project.tree / FOLDER / "jwt.md").read_bytes() == before


def test_upsert_of_a_case_twin_creates_its_own_entry(project: Project) -> None:
    curate(project, add("jwt"))
    upsert = {"type": "UPSERT", "path": FOLDER, "title": "JWT", "content": "caps",
              "reason": "r"}
    created = curate(project, upsert)[0]
    assert created.status == "success"
    assert created.file != f"{FOLDER}/jwt.md"
    assert title_of(project, created.file) == "JWT"
    assert title_of(project, f"{FOLDER}/jwt.md") == "jwt"


def test_imported_notes_named_like_twins_each_become_an_entry(
    project: Project, tmp_path: Path
) -> None:
    from brv_vc.services.importers import import_notes

    source = tmp_path / "notes"
    for i, title in enumerate(["c++", "c", "JWT", "jwt"]):
        (source / "lang").mkdir(parents=True, exist_ok=True)
        (source / "lang" / f"n{i}.md").write_text(f"---\ntitle: '{title}'\n---\nAbout {title}.\n")
    result = import_notes(project, source, NOW, flavour="basic-memory")
    assert sorted(i.title for i in result.imported) == ["JWT", "c", "c++", "jwt"]
    assert result.skipped == ()
    assert len({i.path for i in result.imported}) == 4
    for item in result.imported:
        assert title_of(project, item.path) == item.title  # the path curate really used
