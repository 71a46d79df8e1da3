"""No symlink in the tree is ever written or read through: remotes, archive, derived files, vc add, hooks."""

from __future__ import annotations

import os
from pathlib import Path

import vc_helpers
from vc_helpers import Team, git

from brv_vc.tree.project import Project
from tests.conftest import snapshot

SECRET = "hunter2-top-secret-credential"

team = vc_helpers.team


def _secret(tmp_path: Path) -> Path:
    secret = tmp_path / "secret.txt"
    secret.write_text(f"---\ntitle: \"{SECRET}\"\n---\n{SECRET}\n")
    return secret


def _mallory_pushes_links(team: Team, tmp_path: Path, secret: Path) -> None:
    """A teammate with plain git commits links: an entry to a secret, a folder outside."""
    mallory = tmp_path / "mallory"
    git(tmp_path, "clone", "-q", str(team.remote), str(mallory))
    os.symlink(secret, mallory / "auth/jwt/leak.md")
    os.symlink(secret.parent, mallory / "auth/outside")
    git(mallory, "add", "-A")
    git(mallory, "commit", "-q", "--no-verify", "-m", "links")
    git(mallory, "push", "-q", "origin", "main")


def _no_secret_in(root: Path) -> None:
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink() and ".git" not in path.parts:
            if any(part.is_symlink() for part in [path, *path.parents]):
                continue
            assert SECRET not in path.read_bytes().decode("utf-8", "replace"), path


def test_pull_names_links_from_a_remote_and_never_reads_them(team: Team, tmp_path: Path) -> None:
    secret = _secret(tmp_path)
    _mallory_pushes_links(team, tmp_path, secret)
    pulled = team.bob.ok("vc", "pull")
    out = pulled.stdout + pulled.stderr
    assert "auth/jwt/leak.md is a symlink; brv never reads or writes through a link" in out
    assert "auth/outside is a symlink" in out
    assert team.bob.brv("search", SECRET, "--json").json()["results"] == []
    shown = team.bob.fails("show", "auth/jwt/leak.md")
    assert "goes through a symlink" in shown.stderr or "resolves outside" in shown.stderr
    listed = {p["path"] for p in team.bob.ok("index", "--json").json()["problems"]}
    assert {"auth/jwt/leak.md", "auth/outside"} <= listed
    team.bob.ok("summarize")
    _no_secret_in(team.bob.root / ".brv")
    assert secret.read_text().count(SECRET) == 2


def test_clone_names_links_and_leaves_them_unread(team: Team, tmp_path: Path) -> None:
    secret = _secret(tmp_path)
    _mallory_pushes_links(team, tmp_path, secret)
    carol = tmp_path / "carol"
    carol.mkdir()
    from tests.conftest import run_brv

    result = run_brv("vc", "clone", str(team.remote), cwd=carol)
    assert result.exit_code == 0, result.stderr
    assert "auth/jwt/leak.md is a symlink" in result.stdout + result.stderr
    _no_secret_in(carol / ".brv")


def test_symlinked_archive_folder_is_never_written_through(project: Project, brv,
                                                          tmp_path: Path) -> None:
    assert brv("curate", "add", "api/auth", "--title", "Token rotation", "--content", "x",
               cwd=project.root).exit_code == 0
    outside = tmp_path / "outside"
    outside.mkdir()
    os.symlink(outside, project.tree / "_archived")
    before = snapshot(project.root)
    result = brv("archive", "api/auth/token_rotation.md", cwd=project.root)
    assert result.exit_code == 1, result.stderr
    assert "'_archived' -> " in result.stderr
    assert "never reads or writes through a link" in (
        result.stderr)
    assert list(outside.iterdir()) == []
    assert snapshot(project.root) == before
    assert (project.tree / "api/auth/token_rotation.md").is_file()


def test_symlinked_folder_inside_the_tree_is_refused_by_curate(project: Project, brv) -> None:
    assert brv("curate", "add", "api/auth", "--title", "Real", "--content", "x",
               cwd=project.root).exit_code == 0
    os.symlink("auth", project.tree / "api/alias")
    before = snapshot(project.root)
    result = brv("curate", "update", "api/alias/real.md", "--content", "y", cwd=project.root)
    assert result.exit_code == 1
    assert "goes through a symlink ('api/alias' -> auth)" in result.stderr
    assert snapshot(project.root) == before


def test_derived_file_that_is_a_link_is_never_written_through(project: Project, brv,
                                                             tmp_path: Path) -> None:
    assert brv("curate", "add", "api/auth", "--title", "Real", "--content", "x",
               cwd=project.root).exit_code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    index = project.tree / "api/auth/_index.md"
    index.unlink(missing_ok=True)
    os.symlink(victim, index)
    result = brv("summarize", cwd=project.root)
    assert result.exit_code in (0, 1), result.stderr
    assert "internal error" not in result.stderr
    assert victim.read_text() == "keep me"
    assert brv("curate", "update", "api/auth/real.md", "--content", "y",
               cwd=project.root).exit_code == 0
    assert victim.read_text() == "keep me"


def test_vc_add_refuses_to_stage_a_symlink(team: Team, tmp_path: Path) -> None:
    os.symlink(_secret(tmp_path), team.alice.tree / "auth/jwt/leak.md")
    for args in (("vc", "add"), ("vc", "add", "auth/jwt/leak.md"), ("vc", "add", "auth")):
        result = team.alice.fails(*args)
        assert "refusing to stage auth/jwt/leak.md: a symlink" in result.stderr
        assert "nothing was staged" in result.stderr
    assert team.alice.git("diff", "--cached", "--name-only") == ""


def test_vc_add_refuses_a_path_whose_parent_folder_is_a_symlink(team: Team,
                                                                 tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sub").mkdir()
    (outside / "x.md").write_text("---\ntitle: X\n---\nx\n")
    (outside / "sub/y.md").write_text("---\ntitle: Y\n---\ny\n")
    os.symlink(outside, team.alice.tree / "auth/linked")
    before = snapshot(team.alice.tree)
    for named in ("auth/linked/x.md", "auth/linked/sub"):
        result = team.alice.fails("vc", "add", named)
        assert f"refusing to stage {named}: it goes through the symlink auth/linked" \
            in result.stderr
        assert "nothing was staged" in result.stderr
        assert "rm .brv/context-tree/auth/linked" in result.stderr
    assert team.alice.git("diff", "--cached", "--name-only") == ""
    assert snapshot(team.alice.tree) == before


def test_vc_add_never_stages_a_links_target_under_another_name(team: Team) -> None:
    """A link to another folder of the tree, named as a path on disk from the project root."""
    os.symlink(team.alice.tree / "auth/jwt", team.alice.tree / "auth/inlink")
    before = snapshot(team.alice.tree)
    for named in ("auth/inlink/token_rotation.md",
                  ".brv/context-tree/auth/inlink/token_rotation.md"):
        result = team.alice.fails("vc", "add", named)
        assert "refusing to stage auth/inlink/token_rotation.md: it goes through the symlink " \
            "auth/inlink" in result.stderr, result.stderr
    assert team.alice.git("diff", "--cached", "--name-only") == ""
    assert snapshot(team.alice.tree) == before


def test_pre_commit_hook_refuses_a_staged_symlink(team: Team, tmp_path: Path) -> None:
    os.symlink(_secret(tmp_path), team.alice.tree / "auth/jwt/leak.md")
    team.alice.git("add", "-A")
    import subprocess

    proc = subprocess.run(["git", "commit", "-m", "sneak"], cwd=team.alice.tree,
                          capture_output=True, text=True, check=False)
    assert proc.returncode != 0
    assert "auth/jwt/leak.md" in proc.stderr
    assert "is a symlink" in proc.stderr
    assert "git rm --cached auth/jwt/leak.md" in proc.stderr
    assert "sneak" not in team.alice.git("log", "--oneline")


def test_validate_lists_a_symlink_in_the_tree(project: Project, brv, tmp_path: Path) -> None:
    os.symlink(_secret(tmp_path), project.tree / "leak.md")
    result = brv("validate", "--json", cwd=project.root)
    assert result.exit_code == 1
    assert "'leak.md' is a symlink, not a regular file" in result.stdout
