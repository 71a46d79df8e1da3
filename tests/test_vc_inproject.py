"""In-project mode: the project's own repository tracks the tree, and knowledge commands
never touch, stage or commit code files. Standalone mode in a code repository ignores .brv/."""

from __future__ import annotations

from pathlib import Path

from conftest import snapshot
from vc_helpers import Member, git, in_project_app, make_member

ROT = "auth/jwt/token_rotation.md"


def _code_repo(tmp_path: Path) -> Member:
    member = make_member(tmp_path, "app")
    git(member.root, "init", "-q")
    (member.root / "src").mkdir()
    (member.root / "src/app.py").write_text("print('v1')\n")
    git(member.root, "add", ".")
    git(member.root, "commit", "-q", "-m", "code")
    return member


def test_knowledge_commands_never_touch_code(tmp_path: Path) -> None:
    app = _code_repo(tmp_path)
    result = app.ok("vc", "init", "--in-project", "--json").json()
    assert result["mode"] == "in-project"
    assert result["prefix"] == ".brv/context-tree"
    app.write(ROT, "Token rotation", facts=["single use"])
    (app.root / "src/app.py").write_text("print('v2')\n")  # unstaged code change
    (app.root / "src/new.py").write_text("x = 1\n")  # untracked code
    (app.root / "src/staged.py").write_text("y = 2\n")
    git(app.root, "add", "src/staged.py")  # the user staged code on purpose

    status = app.ok("vc", "status", "--json").json()
    assert status["mode"] == "in-project"
    assert set(status["untracked"]) == {".gitignore", ".gitattributes", ROT}
    assert status["staged"] == []
    assert status["unstaged"] == []

    app.ok("vc", "add")  # knowledge plus brv's project files (settings, .brv/.gitignore)
    staged = set(git(app.root, "diff", "--cached", "--name-only").split())
    brv_files = {".brv/config.yaml", ".brv/.gitignore"}
    assert staged == {"src/staged.py", ".brv/context-tree/.gitignore", *brv_files,
                      ".brv/context-tree/.gitattributes", f".brv/context-tree/{ROT}"}
    assert app.ok("vc", "diff", "--staged", "--json").json()["counts"] == {"added": 3}

    app.ok("vc", "commit", "-m", "knowledge: token rotation")
    committed = set(git(app.root, "show", "--name-only", "--format=", "HEAD").split())
    assert committed == {".brv/context-tree/.gitignore", ".brv/context-tree/.gitattributes",
                         f".brv/context-tree/{ROT}", *brv_files}
    assert git(app.root, "diff", "--cached", "--name-only").split() == ["src/staged.py"]
    assert git(app.root, "diff", "--name-only").split() == ["src/app.py"]
    assert (app.root / "src/new.py").read_text() == "x = 1\n"
    assert app.ok("vc", "status", "--json").json()["staged"] == []

    log = app.ok("vc", "log", "--json").json()["commits"]
    assert [c["subject"] for c in log] == ["knowledge: token rotation"]  # not "code"

    app.edit(ROT, title="Rotation")
    app.ok("vc", "add", ROT)
    app.ok("vc", "reset")  # unstage knowledge only
    assert git(app.root, "diff", "--cached", "--name-only").split() == ["src/staged.py"]
    refused = app.fails("vc", "reset", "--hard", code=1)  # a refused operation, not usage
    assert "code included" in refused.stderr


def test_in_project_refuses_when_the_project_ignores_brv(tmp_path: Path) -> None:
    app = _code_repo(tmp_path)
    (app.root / ".gitignore").write_text(".brv/\n")
    result = app.fails("vc", "init", "--in-project")
    assert "ignores the context tree" in result.stderr
    assert "remove the '.brv/' line" in result.stderr


def test_standalone_in_a_code_repository_ignores_brv(tmp_path: Path) -> None:
    app = _code_repo(tmp_path)
    app.ok("vc", "init")
    assert (app.root / ".gitignore").read_text() == ".brv/\n"
    app.ok("vc", "init")  # idempotent
    assert (app.root / ".gitignore").read_text() == ".brv/\n"
    assert (app.tree / ".git").is_dir()
    app.write(ROT, "Token rotation")
    assert git(app.root, "status", "--porcelain").split() == ["??", ".gitignore"]
    assert app.ok("vc", "status", "--json").json()["mode"] == "standalone"


def test_in_project_team_merges_knowledge_with_the_driver(tmp_path: Path) -> None:
    app = _code_repo(tmp_path)
    app.ok("vc", "init", "--in-project")
    app.write(ROT, "Token rotation", tags=("auth",), facts=["single use"])
    app.ok("vc", "add")
    app.ok("vc", "commit", "-m", "knowledge")
    bare = tmp_path / "app.git"
    git(tmp_path, "clone", "-q", "--bare", str(app.root), str(bare))
    members = []
    for name in ("alice", "bob"):
        git(tmp_path, "clone", "-q", str(bare), name)
        member = Member(name, tmp_path / name)
        member.ok("vc", "init", "--in-project")  # registers the drivers in this clone
        members.append(member)
    alice, bob = members
    alice.edit(ROT, tags=("auth", "alice"))
    alice.ok("vc", "add")
    alice.ok("vc", "commit", "-m", "alice tag")
    alice.ok("vc", "push")
    bob.edit(ROT, tags=("auth", "bob"), summary="bob's summary")
    (bob.root / "src/app.py").write_text("print('bob')\n")
    git(bob.root, "commit", "-q", "-am", "bob: code and knowledge in one commit")
    pulled = bob.ok("vc", "pull", "--json").json()
    assert pulled["conflicts"] == []
    assert pulled["after"]["changed"] == [ROT]  # tree paths only, never src/app.py
    merged = bob.read(ROT)
    assert merged.tags == ("auth", "bob", "alice")
    assert merged.summary == "bob's summary"
    assert (bob.root / "src/app.py").read_text() == "print('bob')\n"


def _clone(tmp_path: Path, app: Member, name: str) -> Member:
    git(tmp_path, "clone", "-q", str(app.root), name)
    return Member(name, tmp_path / name)


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


def test_init_in_project_after_git_clone_builds_derived_files(tmp_path: Path) -> None:
    app = in_project_app(tmp_path, ROT)
    git(tmp_path, "clone", "-q", str(app.root), "dave")
    dave = Member("dave", tmp_path / "dave")
    assert not (dave.tree / "_index.md").exists()
    dave.ok("vc", "init", "--in-project")
    assert (dave.tree / "_index.md").is_file()
    assert dave.ok("vc", "status", "--json").json()["untracked"] == []
