"""Adopting a ByteRover tree (tests/fixtures/byterover_tree, written in the shapes public
ByteRover repositories commit): legacy signals seed the sidecar, tracked derived files are
untracked in one commit of their own and their text is kept, odd-but-valid files load."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import run_brv
from vc_helpers import git

FIXTURE = Path(__file__).parent / "fixtures" / "byterover_tree"
LEDGER = "payments/ledger"
DERIVED = sorted([
    "_index.md", "_manifest.json", "onboarding/_index.md", "onboarding/local_setup/_index.md",
    "payments/_index.md", f"{LEDGER}/_index.md", f"{LEDGER}/double_entry_rules.abstract.md",
    f"{LEDGER}/double_entry_rules.overview.md",
])


def _standalone(tmp_path: Path) -> tuple[Path, Path]:
    """A project whose tree is a ByteRover nested repository with everything committed."""
    root = tmp_path / "proj"
    tree = root / ".brv" / "context-tree"
    shutil.copytree(FIXTURE, tree)
    git(root, "init", "-q")
    git(tree, "init", "-q", "-b", "main")
    git(tree, "add", "-A")
    git(tree, "commit", "-qm", "byterover tree")
    return root, tree


def _snapshot(tree: Path) -> dict[str, bytes]:
    return {p.relative_to(tree).as_posix(): p.read_bytes()
            for p in sorted(tree.rglob("*")) if p.is_file() and ".git" not in p.parts}


def test_init_without_adopt_names_the_tracked_derived_files_and_rewrites_none(
    tmp_path: Path,
) -> None:
    root, tree = _standalone(tmp_path)
    before = _snapshot(tree)
    result = run_brv("vc", "init", "--no-hooks", "--json", cwd=root)
    assert result.exit_code == 0, result.stderr
    answer = result.json()
    assert answer["derived_tracked"] == DERIVED
    assert answer["adopted"] == []
    assert any("--adopt" in note for note in answer["notes"])
    after = _snapshot(tree)
    assert {p: after[p] for p in before} == before  # no summary or abstract rewritten
    assert sorted(git(tree, "ls-files").split()) == sorted(before)


def test_init_adopt_untracks_derived_files_in_a_commit_of_their_own(tmp_path: Path) -> None:
    root, tree = _standalone(tmp_path)
    ledger_index = (tree / LEDGER / "_index.md").read_bytes()
    abstract = (tree / LEDGER / "double_entry_rules.abstract.md").read_bytes()
    entry = (tree / LEDGER / "double_entry_rules.md").read_bytes()
    result = run_brv("vc", "init", "--adopt", "--json", cwd=root)
    assert result.exit_code == 0, result.stderr
    answer = result.json()
    assert answer["adopted"] == DERIVED
    assert git(tree, "rev-parse", "HEAD").strip() == answer["adopt_commit"]
    assert git(tree, "log", "-1", "--format=%s").strip() == (
        "brv: stop tracking derived files (regenerated on every machine)")
    changed = git(tree, "show", "--name-status", "--format=", "HEAD").splitlines()
    assert sorted(line.split("\t")[1] for line in changed if line.startswith("D")) == DERIVED
    assert {line.split("\t")[1] for line in changed if not line.startswith("D")} <= {
        ".gitignore", ".gitattributes"}
    tracked = git(tree, "ls-files").split()
    assert not set(DERIVED) & set(tracked)
    # the files stay, the provider-written text is kept, the entry is not touched
    assert (tree / LEDGER / "_index.md").read_bytes() == ledger_index
    assert (tree / LEDGER / "double_entry_rules.abstract.md").read_bytes() == abstract
    assert (tree / LEDGER / "double_entry_rules.md").read_bytes() == entry
    assert b"importance: 78\n" in entry
    # brv's own hooks do not refuse what follows: status is clean, derived files are ignored
    status = run_brv("vc", "status", "--json", cwd=root).json()
    assert status["staged"] == []
    assert status["unstaged"] == []
    assert status["untracked"] == []
    # running it again changes nothing
    again = run_brv("vc", "init", "--adopt", "--json", cwd=root)
    assert again.json()["adopted"] == []
    assert again.json()["derived_tracked"] == []


def test_kept_summaries_and_abstracts_are_regenerated_once_their_entry_changes(
    tmp_path: Path,
) -> None:
    root, tree = _standalone(tmp_path)
    assert run_brv("vc", "init", "--adopt", "--no-hooks", cwd=root).exit_code == 0
    old_index = (tree / LEDGER / "_index.md").read_bytes()
    old_abstract = (tree / LEDGER / "double_entry_rules.abstract.md").read_bytes()
    assert run_brv("summarize", cwd=root).exit_code == 0
    assert (tree / LEDGER / "_index.md").read_bytes() == old_index
    assert (tree / LEDGER / "double_entry_rules.abstract.md").read_bytes() == old_abstract
    done = run_brv("curate", "update", f"{LEDGER}/double_entry_rules.md", "--reason", "new fact",
                   "--summary", "Balanced postings, checked per currency", cwd=root)
    assert done.exit_code == 0, done.stderr
    assert run_brv("summarize", cwd=root).exit_code == 0
    assert (tree / LEDGER / "_index.md").read_bytes() != old_index
    assert (tree / LEDGER / "double_entry_rules.abstract.md").read_bytes() != old_abstract


def test_adopted_entries_keep_their_signals_and_are_not_all_archive_candidates(
    tmp_path: Path,
) -> None:
    root, _ = _standalone(tmp_path)
    assert run_brv("vc", "init", "--adopt", "--no-hooks", cwd=root).exit_code == 0
    shown = run_brv("show", f"{LEDGER}/double_entry_rules.md", "--json", cwd=root).json()
    assert shown["signals"]["importance"] == pytest.approx(78.0, abs=0.5)
    assert shown["signals"]["maturity"] == "validated"
    assert shown["signals"]["update_count"] == 5
    assert shown["frontmatter"]["importance"] == 78  # kept in the file, untouched
    candidates = run_brv("archive", "--candidates", "--json", cwd=root).json()["candidates"]
    # only the entry ByteRover itself scored low; the validated and mid-importance ones stay
    assert [c["path"] for c in candidates] == ["onboarding/local_setup/docker_compose_stack.md"]


def test_h1_titles_title_less_context_files_and_domain_level_syntheses_are_knowledge(
    tmp_path: Path,
) -> None:
    root, tree = _standalone(tmp_path)
    assert run_brv("vc", "init", "--adopt", "--no-hooks", cwd=root).exit_code == 0
    index = run_brv("index", "--json", cwd=root).json()
    assert index["problems"] == []
    assert index["misplaced"] == []
    found = run_brv("search", "partial refund", "--json", cwd=root).json()["results"]
    assert found[0]["title"] == "Partial refund flow"
    found = run_brv("search", "settlement file", "--json", cwd=root).json()["results"]
    assert found[0]["path"] == "payments/reconciliation_patterns.md"
    found = run_brv("search", "money movement platform", "--json", cwd=root).json()["results"]
    assert "payments/context.md" in [hit["path"] for hit in found]
    # the pre-commit check accepts a new synthesis beside the domain's context.md ...
    (tree / "payments" / "chargeback_synthesis.md").write_text(
        '---\ntype: synthesis\ntitle: "Chargebacks and refunds"\n---\nBoth reverse charges.\n')
    assert run_brv("vc", "add", cwd=root).exit_code == 0
    done = run_brv("vc", "commit", "-m", "synthesis", cwd=root)
    assert done.exit_code == 0, done.stderr
    # ... and still refuses a plain note there
    (tree / "payments" / "notes.md").write_text('---\ntitle: "Loose notes"\n---\nText.\n')
    git(tree, "add", "payments/notes.md")
    refused = run_brv("vc", "commit", "-m", "notes", cwd=root)
    assert refused.exit_code == 1
    assert "payments/notes.md" in refused.stderr
    assert "domain folder" in refused.stderr


def test_in_project_adopt_untracks_derived_files_from_the_project_repository(
    tmp_path: Path,
) -> None:
    root = tmp_path / "proj"
    tree = root / ".brv" / "context-tree"
    shutil.copytree(FIXTURE, tree)
    (root / "app.py").write_text("print('hi')\n")
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "code and a byterover tree")
    (root / "app.py").write_text("print('staged code')\n")
    git(root, "add", "app.py")
    result = run_brv("vc", "init", "--in-project", "--adopt", "--no-hooks", "--json", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert result.json()["adopted"] == [f".brv/context-tree/{p}" for p in DERIVED]
    changed = git(root, "show", "--name-only", "--format=", "HEAD").split()
    assert "app.py" not in changed  # the user's staged code stays staged, uncommitted
    assert git(root, "diff", "--cached", "--name-only").split() == ["app.py"]
    assert not [p for p in git(root, "ls-files").split() if p.endswith("_index.md")]
    assert (tree / "_manifest.json").exists()


def test_clone_of_a_byterover_repository_names_its_tracked_derived_files(
    tmp_path: Path,
) -> None:
    _, tree = _standalone(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    cloned = run_brv("vc", "clone", str(tree), "--no-hooks", "--json", cwd=other)
    assert cloned.exit_code == 0, cloned.stderr
    assert cloned.json()["derived_tracked"] == DERIVED
    adopted = run_brv("vc", "init", "--adopt", "--no-hooks", "--json", cwd=other)
    assert adopted.json()["adopted"] == DERIVED
