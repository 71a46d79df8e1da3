"""brv vc clone: a remote whose HEAD names a missing branch, and the refusal to clone a
repository that tracks its knowledge in-project."""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import git, in_project_app, make_member

ROT = "auth/jwt/token_rotation.md"


def test_clone_of_an_in_project_repository_is_refused_and_rolled_back(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    carol = make_member(tmp_path, "carol")
    before = snapshot(carol.root)
    result = carol.fails("vc", "clone", str(app.root))
    assert "tracks its knowledge in-project" in result.stderr
    assert "git clone" in result.stderr
    assert "brv vc init --in-project" in result.stderr
    assert snapshot(carol.root) == before
    assert not (carol.root / ".brv").exists()


def _bare_with_head_master(tmp_path: Path, branches: tuple[str, ...]) -> Path:
    """A bare remote whose HEAD names 'master' while only ``branches`` were pushed."""
    bare = tmp_path / "kb.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "master", str(bare))
    alice = make_member(tmp_path, "alice")
    alice.ok("vc", "init")
    alice.write(ROT, "Token rotation")
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "first")
    alice.ok("vc", "remote", "add", "origin", str(bare))
    for name in branches:
        alice.ok("vc", "push", "origin", name)
    return bare


def test_clone_checks_out_main_when_the_remote_head_is_missing(tmp_path: Path) -> None:
    bare = _bare_with_head_master(tmp_path, ("main",))
    bob = make_member(tmp_path, "bob")
    result = bob.ok("vc", "clone", str(bare), "--json").json()
    assert "checked out 'main'" in " ".join(result["notes"])
    assert (bob.tree / ROT).is_file()
    assert bob.git("rev-parse", "--abbrev-ref", "HEAD").strip() == "main"
    assert bob.git("rev-parse", "--abbrev-ref", "main@{upstream}").strip() == "origin/main"


def test_clone_with_a_missing_head_and_several_branches_is_refused(tmp_path: Path) -> None:
    bare = _bare_with_head_master(tmp_path, ("dev", "review"))
    bob = make_member(tmp_path, "bob")
    result = bob.fails("vc", "clone", str(bare))
    assert "does not exist there" in result.stderr
    assert "dev, review" in result.stderr
    assert not (bob.root / ".brv").exists()
