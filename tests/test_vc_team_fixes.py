"""Fixes from the user-facing audit of ``brv vc`` (state, modes, reset, archives, wording).

Each test reproduces an audit finding with real git and real repositories.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import snapshot
from vc_helpers import Member, git, in_project_app, make_member

ROT = "auth/jwt/token_rotation.md"


def _clone(tmp_path: Path, app: Member, name: str) -> Member:
    git(tmp_path, "clone", "-q", str(app.root), name)
    return Member(name, tmp_path / name)


# H2 -------------------------------------------------------------------------------------


def test_in_project_add_commits_the_settings_and_a_clone_searches_at_once(
        tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    # nothing brv wrote is left untracked: settings and .brv/.gitignore went with the commit
    assert git(app.root, "status", "--porcelain", "--untracked-files=all") == ""
    tracked = git(app.root, "ls-tree", "-r", "--name-only", "HEAD").split()
    assert ".brv/config.yaml" in tracked
    assert ".brv/.gitignore" in tracked
    assert not [p for p in tracked if p.startswith(".brv/state")]

    mate = _clone(tmp_path, app, "mate")
    hits = mate.ok("search", "rotate", "--json").json()
    assert ROT in [h["path"] for h in hits["results"]]
    assert (mate.root / ".brv/state/index.db").is_file()
    assert git(mate.root, "status", "--porcelain", "--untracked-files=all",
               "--ignored=no") == ""
    git(mate.root, "add", "-A")
    assert git(mate.root, "diff", "--cached", "--name-only") == ""


def test_state_ignores_itself_even_without_brv_gitignore(tmp_path: Path) -> None:
    """A repository that never committed .brv/.gitignore (older brv) still keeps state out."""
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    app.ok("init")
    app.ok("curate", "add", "ops/ci", "--title", "Pipeline", "--content", "lint first")
    (app.root / ".brv/.gitignore").unlink()
    state_ignore = app.root / ".brv/state/.gitignore"
    state_ignore.unlink()  # a project made before the file existed
    app.ok("search", "pipeline")
    assert state_ignore.read_text().splitlines()[-1] == "*"
    status = git(app.root, "status", "--porcelain", "--untracked-files=all")
    assert ".brv/state" not in status
    assert ".brv/context-tree/ops/ci/pipeline.md" in status
    git(app.root, "add", "-A")
    assert ".brv/state" not in git(app.root, "diff", "--cached", "--name-only")


def test_in_project_add_respects_a_project_that_keeps_settings_local(tmp_path: Path) -> None:
    app = make_member(tmp_path, "app")
    git(app.root, "init", "-q")
    (app.root / ".gitignore").write_text(".brv/config.yaml\n")
    app.ok("vc", "init", "--in-project")
    app.write(ROT, "Token rotation", facts=["single use"])
    app.ok("vc", "add")
    staged = git(app.root, "diff", "--cached", "--name-only").split()
    assert ".brv/config.yaml" not in staged
    assert ".brv/.gitignore" in staged
    assert f".brv/context-tree/{ROT}" in staged
    app.ok("vc", "commit", "-m", "kb")
    assert git(app.root, "status", "--porcelain") == "?? .gitignore\n"


def test_in_project_commit_takes_settings_but_never_code(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    config = app.root / ".brv/config.yaml"
    config.write_text(config.read_text() + "search:\n  limit: 5\n")
    (app.root / "app.py").write_text("print('v2')\n")
    git(app.root, "add", "app.py")
    app.ok("vc", "add")
    app.ok("vc", "reset")  # unstaging everything is symmetric: settings too, never code
    assert git(app.root, "diff", "--cached", "--name-only").split() == ["app.py"]
    app.ok("vc", "add")
    result = app.ok("vc", "commit", "-m", "settings", "--json").json()
    assert result["files"] == 1
    assert git(app.root, "show", "--name-only", "--format=", "HEAD").split() == [
        ".brv/config.yaml"]
    assert git(app.root, "diff", "--cached", "--name-only").split() == ["app.py"]


# H3 -------------------------------------------------------------------------------------


def test_standalone_init_in_a_clone_of_an_in_project_repository_is_refused(
        tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    mate = _clone(tmp_path, app, "mate")
    before = snapshot(mate.root)
    result = mate.fails("vc", "init")
    assert "already tracked by the project's repository (in-project mode)" in result.stderr
    assert "brv vc init --in-project" in result.stderr
    assert snapshot(mate.root) == before
    assert not (mate.tree / ".git").exists()
    error = mate.fails("vc", "init", "--json").json()["error"]
    assert error["code"] == "conflict"
    mate.ok("vc", "init", "--in-project")  # the way the hint points at works


# H5 -------------------------------------------------------------------------------------


def _standalone(tmp_path: Path, *flags: str) -> Member:
    member = make_member(tmp_path, "solo")
    member.ok("init")
    member.ok("vc", "init", *flags)
    return member


def _derived(member: Member) -> dict[str, str]:
    """Every derived file of the tree (summaries, abstracts, manifest, archives) and its text."""
    from brv_vc.tree.layout import is_derived

    out = {}
    for path in sorted(member.tree.rglob("*")):
        rel = path.relative_to(member.tree).as_posix()
        if path.is_file() and not rel.startswith(".git/") and is_derived(rel):
            out[rel] = path.read_text(encoding="utf-8")
    return out


def test_reset_hard_refreshes_derived_files_of_discarded_edits(tmp_path: Path) -> None:
    solo = _standalone(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "canary first")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    clean = _derived(solo)
    solo.ok("curate", "update", "ops/deploy/blue_green.md", "--content", "ocelot draft")
    assert "ocelot" in (solo.tree / "ops/deploy/_index.md").read_text()
    result = solo.ok("vc", "reset", "--hard", "HEAD", "--json").json()
    assert result["after"]["changed"] == ["ops/deploy/blue_green.md"]
    assert "ocelot" not in (solo.tree / "ops/deploy/blue_green.abstract.md").read_text()
    assert "ocelot" not in (solo.tree / "ops/deploy/_index.md").read_text()
    assert solo.ok("search", "ocelot", "--json").json()["results"] == []
    # a staged new entry and a staged new folder are discarded with their derived files
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "gamma text")
    solo.ok("curate", "add", "billing/invoices", "--title", "Eps", "--content", "eps text")
    solo.ok("vc", "add")
    solo.ok("vc", "reset", "--hard", "HEAD")
    after = _derived(solo)
    assert after.keys() == clean.keys()
    assert "gamma" not in after["_manifest.json"]
    assert "billing" not in after["_manifest.json"]
    assert not (solo.tree / "billing").exists()
    # the folder is new again: a later ADD writes its context.md
    solo.ok("curate", "add", "billing/invoices", "--title", "Zeta", "--content", "z")
    assert (solo.tree / "billing/invoices/context.md").is_file()
    assert (solo.tree / "billing/context.md").is_file()


# H6 -------------------------------------------------------------------------------------


def test_an_archived_entry_back_through_checkout_loses_its_ghost(tmp_path: Path) -> None:
    solo = _standalone(tmp_path, "--no-hooks")  # vc checkout's own step, not the hook's
    solo.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("vc", "checkout", "-b", "cleanup")
    solo.ok("archive", "kb/topic/old_idea.md")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "archive")
    stub = solo.tree / "_archived/kb/topic/old_idea.stub.md"
    result = solo.ok("vc", "checkout", "main", "--json").json()
    assert result["after"]["unarchived"] == ["kb/topic/old_idea.md"]
    assert not stub.exists()
    assert not (solo.tree / "_archived").exists()
    paths = [h["path"] for h in solo.ok("search", "platypus", "--json").json()["results"]]
    assert paths == ["kb/topic/old_idea.md"]
    solo.ok("vc", "checkout", "cleanup")  # the archive comes back from the trailer
    assert stub.is_file()
    assert not (solo.tree / "kb/topic/old_idea.md").exists()


def test_a_teammates_restore_removes_the_archive_on_pull(tmp_path: Path) -> None:
    from vc_helpers import start_team

    team = start_team(tmp_path)
    alice, bob = team.alice, team.bob
    alice.ok("archive", ROT)
    alice.sync("archive rotation")
    bob.ok("vc", "pull")
    stub = bob.tree / "_archived/auth/jwt/token_rotation.stub.md"
    assert stub.is_file()
    alice.ok("restore", ROT)
    alice.sync("restore rotation")
    bob.ok("vc", "pull")
    assert not stub.exists()
    assert not (bob.tree / "_archived/auth/jwt/token_rotation.full.md").exists()
    paths = [h["path"] for h in bob.ok("search", "rotate", "--json").json()["results"]]
    assert ROT in paths
    assert not [p for p in paths if p.startswith("_archived/")]


def test_plain_git_merge_with_hooks_drops_the_ghost(tmp_path: Path) -> None:
    solo = _standalone(tmp_path)
    solo.ok("curate", "add", "kb/topic", "--title", "Old idea", "--content", "platypus idea")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("archive", "kb/topic/old_idea.md")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "archive")
    stub = solo.tree / "_archived/kb/topic/old_idea.stub.md"
    # a branch revives the entry with plain git; main takes it with a plain merge, and the
    # post-merge hook (the same step as 'brv vc pull') drops the archive
    git(solo.tree, "checkout", "-q", "-b", "revive")
    solo.write("kb/topic/old_idea.md", "Old idea", narrative="platypus idea, revived")
    git(solo.tree, "add", "-A")
    git(solo.tree, "commit", "-q", "-m", "revive")
    git(solo.tree, "checkout", "-q", "main")
    assert stub.is_file()
    git(solo.tree, "merge", "-q", "--no-edit", "revive")
    assert (solo.tree / "kb/topic/old_idea.md").is_file()
    assert not stub.exists()


# M1, L5, L4, M8 -------------------------------------------------------------------------


def test_reset_with_more_than_one_mode_is_a_usage_error(tmp_path: Path) -> None:
    solo = _standalone(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "draft")
    before = snapshot(solo.root)
    head = solo.git("rev-parse", "HEAD")
    for modes in (("--soft", "--hard"), ("--mixed", "--hard"), ("--soft", "--mixed")):
        result = solo.fails("vc", "reset", *modes, "HEAD", code=2)
        assert "cannot be combined" in result.stderr
        error = solo.fails("vc", "reset", *modes, "--json", code=2).json()["error"]
        assert error["code"] == "usage"
    assert snapshot(solo.root) == before
    assert solo.git("rev-parse", "HEAD") == head
    assert (solo.tree / "ops/deploy/gamma.md").is_file()


def test_in_project_reset_hard_is_a_refused_operation(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    before = snapshot(app.root)
    for mode in ("--hard", "--soft", "--mixed"):
        error = app.fails("vc", "reset", mode, "--json", code=1).json()["error"]
        assert error["code"] == "conflict"
        assert "code included" in error["message"]
    assert snapshot(app.root) == before


def test_reset_says_where_head_is_now(tmp_path: Path) -> None:
    solo = _standalone(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "first knowledge")
    solo.ok("curate", "add", "ops/deploy", "--title", "Gamma", "--content", "two")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "second")
    sha = solo.git("rev-parse", "--short=7", "HEAD~1").strip()
    out = solo.ok("vc", "reset", "--soft", "HEAD~1").stdout
    assert out.splitlines()[0] == f"HEAD is now at {sha} first knowledge"
    result = solo.ok("vc", "reset", "--hard", "--json").json()
    assert result["sha"].startswith(sha)
    assert result["subject"] == "first knowledge"


def test_checkout_of_the_current_branch_says_already_on(tmp_path: Path) -> None:
    solo = _standalone(tmp_path)
    solo.ok("curate", "add", "ops/deploy", "--title", "Blue green", "--content", "one")
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    assert solo.ok("vc", "checkout", "main").stdout.strip() == "Already on 'main'"
    assert solo.ok("vc", "checkout", "main", "--json").json()["switched"] is False
    solo.ok("vc", "branch", "other")
    assert solo.ok("vc", "checkout", "other").stdout.startswith("Switched to branch 'other'")


def test_pull_into_an_empty_branch_says_what_happened(tmp_path: Path) -> None:
    from vc_helpers import start_team

    team = start_team(tmp_path)
    carol = make_member(tmp_path, "carol")
    carol.ok("vc", "init")
    carol.ok("vc", "remote", "add", "origin", str(team.remote))
    out = carol.ok("vc", "pull", "origin", "main").stdout
    sha = team.alice.git("rev-parse", "--short=7", "HEAD").strip()
    assert "nothing" not in out
    assert out.splitlines()[0] == (f"Branch had no commits; now at {sha} "
                                   "(from branch 'main' of origin)")


def test_pull_and_push_usage_show_branch_as_optional(tmp_path: Path) -> None:
    solo = make_member(tmp_path, "solo")
    for command in ("pull", "push"):
        usage = solo.ok("vc", command, "--help").stdout.splitlines()[0]
        assert usage.endswith("[REMOTE] [BRANCH]"), usage


# L2 -------------------------------------------------------------------------------------


def _record_missing_interpreter(member: Member) -> None:
    """Rewrites the driver config as if the Python that registered it had been removed."""
    from brv_vc.services.vc.setup import driver_config

    for key, value in driver_config().items():
        member.git("config", key, value.replace(sys.executable, str(member.root / "gone/python")))


def _plain_git(cwd: Path, *args: str, path: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": path}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)


def test_plain_git_diff_and_merge_survive_a_removed_interpreter(tmp_path: Path) -> None:
    solo = _standalone(tmp_path, "--no-hooks")
    solo.write(ROT, "Token rotation", tags=("b", "a"), facts=["single use"])
    solo.ok("vc", "add")
    solo.ok("vc", "commit", "-m", "one")
    solo.edit(ROT, title="Rotation of tokens")
    normal = solo.git("diff")
    assert "+title: Rotation of tokens" in normal  # the textconv's normalised rendering
    _record_missing_interpreter(solo)
    bare = _plain_git(solo.tree, "diff", path="/usr/bin:/bin")
    assert bare.returncode == 0, bare.stderr
    assert '+title: "Rotation of tokens"' in bare.stdout  # raw text, as without brv
    # 'brv' on PATH is used when the recorded interpreter is gone
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shim = bindir / "brv"
    here = Path(__file__).resolve().parent.parent
    shim.write_text(f'#!/bin/sh\nPYTHONPATH={here} exec {sys.executable} -m brv_vc "$@"\n')
    shim.chmod(0o755)
    found = _plain_git(solo.tree, "diff", path=f"{bindir}:/usr/bin:/bin")
    assert found.stdout == normal
    # a merge falls back to git's line merge instead of failing on the driver
    solo.git("commit", "-q", "-am", "title")
    solo.git("checkout", "-q", "-b", "side", "HEAD~1")
    (solo.tree / ROT).write_text(solo.text(ROT) + "\nSide note.\n")
    solo.git("commit", "-q", "-am", "note")
    solo.git("checkout", "-q", "main")
    merged = _plain_git(solo.tree, "merge", "--no-edit", "side", path="/usr/bin:/bin")
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = solo.text(ROT)
    assert "Rotation of tokens" in text
    assert "Side note." in text
